import type { Settings } from '@parley/contract';

/** BCP 47 codes of the writing languages, so their names come from Intl in the interface language. */
const CODES: Record<Settings['language'], string> = {
  ENGLISH: 'en',
  SPANISH: 'es',
  FRENCH: 'fr',
  GERMAN: 'de',
  ITALIAN: 'it',
  PORTUGUESE: 'pt',
  DUTCH: 'nl',
  POLISH: 'pl',
  RUSSIAN: 'ru',
  UKRAINIAN: 'uk',
  TURKISH: 'tr',
  ARABIC: 'ar',
  HEBREW: 'he',
  HINDI: 'hi',
  BENGALI: 'bn',
  URDU: 'ur',
  CHINESE_SIMPLIFIED: 'zh-Hans',
  CHINESE_TRADITIONAL: 'zh-Hant',
  JAPANESE: 'ja',
  KOREAN: 'ko',
  VIETNAMESE: 'vi',
  THAI: 'th',
  INDONESIAN: 'id',
  MALAY: 'ms',
  FILIPINO: 'fil',
  SWEDISH: 'sv',
  NORWEGIAN: 'no',
  DANISH: 'da',
  FINNISH: 'fi',
  GREEK: 'el',
  CZECH: 'cs',
  ROMANIAN: 'ro',
  HUNGARIAN: 'hu',
  PERSIAN: 'fa',
};

export function writingLanguageName(id: Settings['language'], uiLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(CODES[id]);
    if (name) return name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1);
  } catch {
    // Intl without display names: the id reads well enough.
  }
  return id.charAt(0) + id.slice(1).toLowerCase().replace(/_/g, ' ');
}
