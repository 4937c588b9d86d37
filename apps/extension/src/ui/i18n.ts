import type { i18n as I18n } from 'i18next';
import { createI18n } from '@parley/i18n';
import { pickUiLanguage, type UiLanguage } from '@parley/contract';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';

/** The extension's pages ship their strings (no remote loading): the `extension` namespace in three languages. */
export function createExtensionI18n(language: string): I18n {
  return createI18n({
    language,
    resources: { en: { extension: en }, es: { extension: es }, fr: { extension: fr } },
    namespaces: ['extension'],
    defaultNS: 'extension',
  });
}

/** Spec §3: the language stored on the user's profile, else the browser's language. */
export function uiLanguage(profileLanguage: string | null | undefined): UiLanguage {
  return pickUiLanguage(profileLanguage ?? navigator.language);
}
