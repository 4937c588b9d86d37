import type { i18n as I18n, Resource } from 'i18next';
import {
  createI18n,
  isLanguage,
  LANGUAGE_COOKIE,
  readLanguageCookie,
  resolveLanguage,
  type Language,
} from '@parley/i18n';
import { setCookie } from './cookies';

let instance: I18n | null = null;

/** Creates the app's i18next instance: http backend in the browser, bundled resources in tests. */
export function initI18n(options: { resources?: Resource; language?: string } = {}): I18n {
  const language =
    options.language ??
    resolveLanguage({ cookie: typeof document === 'undefined' ? null : readLanguageCookie(document.cookie) });
  instance = createI18n({
    language,
    loadPath: '/locales/{{lng}}/{{ns}}.json',
    ...(options.resources ? { resources: options.resources } : {}),
  });
  document.documentElement.lang = instance.language || language;
  instance.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  return instance;
}

export function getI18n(): I18n {
  if (!instance) throw new Error('initI18n() has not run');
  return instance;
}

/**
 * Loads the translations of `namespaces` in the current language (nothing when they are loaded already, or before
 * initI18n). It resolves once they are loaded or given up on (i18next retries, then resolves), as when a page asks
 * for them itself.
 */
export function loadTranslations(namespaces: string[]): Promise<unknown> {
  return instance ? instance.loadNamespaces(namespaces) : Promise.resolve();
}

export function currentLanguage(): Language {
  const lng = instance?.resolvedLanguage ?? instance?.language;
  return isLanguage(lng) ? lng : 'en';
}

/** Switches the interface language now and remembers it in the `lang` cookie. */
export async function applyLanguage(language: Language): Promise<void> {
  setCookie(LANGUAGE_COOKIE, language);
  if (getI18n().language !== language) await getI18n().changeLanguage(language);
}
