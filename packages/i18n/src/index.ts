import i18next, { type i18n as I18n, type Resource } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { WRITING_LANGUAGE_TAGS } from '@parley/contract/values';

/** Interface languages with translated resources (the extension and web app share them). */
export const LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** Date and number formatting also covers Arabic (spec §1). */
export const FORMAT_LOCALES = ['en', 'es', 'fr', 'ar'] as const;

/** Client namespaces. `api` and `mail` are server-side (see server.ts) and never loaded by the browser. */
export const NAMESPACES = ['common', 'auth', 'onboarding', 'home', 'profile', 'settings', 'shell'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const LANGUAGE_COOKIE = 'lang';
/** Spec §9: cookies live 416 days on path /. */
export const COOKIE_MAX_AGE_SECONDS = 416 * 24 * 60 * 60;

/** Spec §9: up to 10 parallel reads, 5 retries, starting delay 350 ms (i18next doubles it on each retry). */
export const LOADING_OPTIONS = { maxParallelReads: 10, maxRetries: 5, retryTimeout: 350 } as const;

export type CreateI18nOptions = {
  language: string;
  /** e.g. '/locales/{{lng}}/{{ns}}.json'; ignored when `resources` is given. */
  loadPath?: string;
  /** Bundled resources (tests, or an extension page that ships them): no network. */
  resources?: Resource;
  namespaces?: readonly string[];
  defaultNS?: string;
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export { formatDateTime, formatFileSize, formatFullDateTime, formatPrice, type DateTimeOptions } from './format.js';

/** A new i18next instance; initialisation starts at once (synchronously when resources are bundled). */
export function createI18n({
  language,
  loadPath,
  resources,
  namespaces = NAMESPACES,
  defaultNS = 'common',
}: CreateI18nOptions): I18n {
  const instance = i18next.createInstance();
  if (!resources) instance.use(HttpBackend);
  void instance.init({
    lng: isLanguage(language) ? language : DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    ns: [...namespaces],
    defaultNS,
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    ...LOADING_OPTIONS,
    ...(resources
      ? { resources, initAsync: false }
      : { backend: { loadPath: loadPath ?? '/locales/{{lng}}/{{ns}}.json' } }),
  });
  return instance;
}

/** Language resolution (spec §3): stored profile setting, then the `lang` cookie, then English. */
export function resolveLanguage(sources: { profile?: string | null; cookie?: string | null }): Language {
  if (isLanguage(sources.profile)) return sources.profile;
  if (isLanguage(sources.cookie)) return sources.cookie;
  return DEFAULT_LANGUAGE;
}

/** Reads the `lang` cookie out of a `document.cookie` string. */
export function readLanguageCookie(cookieString: string): string | null {
  for (const part of cookieString.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The `lang` cookie line to assign to `document.cookie`. */
export function languageCookie(language: Language): string {
  return `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; path=/; max-age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
}

function formatLocale(lng: string): string {
  const short = lng.slice(0, 2).toLowerCase();
  return (FORMAT_LOCALES as readonly string[]).includes(short) ? short : DEFAULT_LANGUAGE;
}

/** A date in the words of the language (`ar` included). Invalid input gives ''. */
export function formatDate(
  date: Date | string | number,
  lng: string,
  options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' },
): string {
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  return new Intl.DateTimeFormat(formatLocale(lng), options).format(value);
}

export function formatNumber(value: number, lng: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(formatLocale(lng), options).format(value);
}

/** A writing language's name in the interface language (e.g. FRENCH → "Français" in fr, "French" in en). */
export function writingLanguageName(id: keyof typeof WRITING_LANGUAGE_TAGS, uiLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(WRITING_LANGUAGE_TAGS[id]);
    if (name) return name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1);
  } catch {
    // No display names in this runtime: the id reads well enough.
  }
  return id.charAt(0) + id.slice(1).toLowerCase().replace(/_/g, ' ');
}
