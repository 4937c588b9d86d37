import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS, pickUiLanguage, UI_LANGUAGES, WRITING_LANGUAGE_TAGS } from '@parley/contract/values';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';

/**
 * The few strings the UI injected into sites needs, without i18next (content scripts stay small): the `onSite`
 * part of the `extension` namespace.
 */
export type OnSiteKey = keyof typeof en.onSite;
export type Translate = (key: OnSiteKey) => string;

const CATALOGS: Record<string, Record<OnSiteKey, string>> = { en: en.onSite, es: es.onSite, fr: fr.onSite };

export function translator(language: string): Translate {
  const catalog = CATALOGS[pickUiLanguage(language)] ?? en.onSite;
  return (key) => catalog[key] ?? en.onSite[key];
}

/**
 * The language of the on-site UI: the `language` setting when the person chose one the interface exists in (so the
 * buttons speak the language the replies are written in), otherwise the profile's interface language, else the
 * browser's. English is the setting's default and says nothing about the person, so it does not override the
 * profile: a Spanish interface stays Spanish until another writing language is picked.
 */
export function onSiteLanguage(writing: Settings['language'] | undefined, interfaceLanguage?: string | null): string {
  const tag = writing && writing !== DEFAULT_SETTINGS.language ? WRITING_LANGUAGE_TAGS[writing] : undefined;
  if (tag && (UI_LANGUAGES as readonly string[]).includes(tag)) return tag;
  return pickUiLanguage(interfaceLanguage || navigator.language);
}
