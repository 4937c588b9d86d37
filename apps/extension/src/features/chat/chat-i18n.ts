import type { i18n as I18n } from 'i18next';
import en from '@parley/i18n/locales/en/chat.json';
import es from '@parley/i18n/locales/es/chat.json';
import fr from '@parley/i18n/locales/fr/chat.json';

/** The shared chat pieces speak the web app's `chat` namespace: shipped with the page, added once. */
export function addChatStrings(i18n: I18n): void {
  for (const [language, strings] of [
    ['en', en],
    ['es', es],
    ['fr', fr],
  ] as const) {
    if (!i18n.hasResourceBundle(language, 'chat')) i18n.addResourceBundle(language, 'chat', strings, true, false);
  }
}
