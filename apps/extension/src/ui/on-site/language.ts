import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS, pickUiLanguage, UI_LANGUAGES, WRITING_LANGUAGE_TAGS } from '@parley/contract/values';

/**
 * The language of the on-site UI: the `language` setting when the person chose one the interface exists in (so the
 * buttons speak the language the replies are written in), otherwise the profile's interface language, else the
 * browser's. English is the setting's default and says nothing about the person, so it does not override the
 * profile: a Spanish interface stays Spanish until another writing language is picked.
 */
// Apart from the string catalogues (strings.ts): the every-page script decides the language without carrying them.
export function onSiteLanguage(writing: Settings['language'] | undefined, interfaceLanguage?: string | null): string {
  const tag = writing && writing !== DEFAULT_SETTINGS.language ? WRITING_LANGUAGE_TAGS[writing] : undefined;
  if (tag && (UI_LANGUAGES as readonly string[]).includes(tag)) return tag;
  return pickUiLanguage(interfaceLanguage || navigator.language);
}
