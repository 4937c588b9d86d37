import { useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { readStoredSettings, watchStoredSettings } from '../platform/storage/settings-store';
import { createExtensionI18n, uiLanguage } from './i18n';
import { useSession } from './use-session';
import './pages.css';

/** The theme setting (light or dark) on <html>, as the web app applies its own. */
function applyTheme(theme: string | undefined) {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme === 'dark' ? 'dark' : 'light';
}

/**
 * Every extension page: i18n following the profile's language (signed out: the last one's, else the browser's), the
 * theme, the session, and the tab's title (`title`, a key of the extension's strings) in that language.
 */
export function PageShell({ title, children }: { title: string; children: ReactNode }) {
  const session = useSession();
  const i18n = useMemo(() => createExtensionI18n(uiLanguage(null)), []);
  const language = uiLanguage(session?.profile?.language ?? session?.endLanguage);
  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = language;
    document.title = i18n.getFixedT(language, 'extension')(title);
  }, [i18n, language, title]);
  useEffect(() => {
    void readStoredSettings().then((s) => applyTheme(s?.theme));
    return watchStoredSettings((s) => applyTheme(s.theme));
  }, []);
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}
