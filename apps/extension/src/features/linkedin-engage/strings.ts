import { pickUiLanguage } from '@parley/contract/values';
import { linkedinEngage as en } from '@parley/i18n/locales/en/extension.json';
import { linkedinEngage as es } from '@parley/i18n/locales/es/extension.json';
import { linkedinEngage as fr } from '@parley/i18n/locales/fr/extension.json';

/**
 * The LinkedIn engagement's strings (the `linkedinEngage` part of the `extension` namespace), only in the lazily
 * imported linkedin-engage.js; `{n}` and `{name}` are filled in.
 */
export type EngageKey = keyof typeof en;
export type EngageTranslate = (key: EngageKey, values?: Record<string, string | number>) => string;

const CATALOGS: Record<string, Record<EngageKey, string>> = { en, es, fr };

export function engageTranslator(language: string): EngageTranslate {
  const catalog = CATALOGS[pickUiLanguage(language)] ?? en;
  return (key, values) =>
    (catalog[key] ?? en[key]).replace(/\{(\w+)\}/g, (whole, name: string) =>
      values && name in values ? String(values[name]) : whole,
    );
}
