import { pickUiLanguage } from '@parley/contract/values';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';

/**
 * The few strings the UI injected into sites needs, without i18next (content scripts stay small): the `onSite`
 * part of the `extension` namespace, in the language chosen by `onSiteLanguage` (language.ts).
 */
export type OnSiteKey = keyof typeof en.onSite;
export type Translate = (key: OnSiteKey) => string;

const CATALOGS: Record<string, Record<OnSiteKey, string>> = { en: en.onSite, es: es.onSite, fr: fr.onSite };

export function translator(language: string): Translate {
  const catalog = CATALOGS[pickUiLanguage(language)] ?? en.onSite;
  return (key) => catalog[key] ?? en.onSite[key];
}
