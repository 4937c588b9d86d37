import type { i18n as I18n } from 'i18next';
import chatEn from '@parley/i18n/locales/en/chat.json';
import chatEs from '@parley/i18n/locales/es/chat.json';
import chatFr from '@parley/i18n/locales/fr/chat.json';
import settingsEn from '@parley/i18n/locales/en/settings.json';
import settingsEs from '@parley/i18n/locales/es/settings.json';
import settingsFr from '@parley/i18n/locales/fr/settings.json';

/**
 * The options page speaks the web app's `settings` namespace (the same names for the same settings on both) and
 * `chat` for the model list: shipped with the page, added once.
 */
export function addOptionsStrings(i18n: I18n): void {
  const bundles = [
    ['en', 'settings', settingsEn],
    ['es', 'settings', settingsEs],
    ['fr', 'settings', settingsFr],
    ['en', 'chat', chatEn],
    ['es', 'chat', chatEs],
    ['fr', 'chat', chatFr],
  ] as const;
  for (const [language, namespace, strings] of bundles) {
    if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, strings, true, false);
  }
}
