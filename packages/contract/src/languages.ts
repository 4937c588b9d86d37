/** Interface languages (the web app and extension UI, and the `lang-type` header). */
export const UI_LANGUAGES = ['en', 'es', 'fr'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'en';

/** Date formatting packs also include Arabic. */
export const DATE_LOCALES = ['en', 'es', 'fr', 'ar'] as const;

export function pickUiLanguage(value: string | null | undefined): UiLanguage {
  const short = (value ?? '').trim().slice(0, 2).toLowerCase();
  return (UI_LANGUAGES as readonly string[]).includes(short) ? (short as UiLanguage) : DEFAULT_UI_LANGUAGE;
}
