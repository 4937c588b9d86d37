import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LANGUAGES, isLanguage, type Language } from '@parley/i18n';
import { LogoMark, Spinner, cn, focusRing } from '@parley/ui';
import { useChangeLanguage } from '../../lib/use-change-language';

/** Sign-in pages: a centred card with the brand and a language picker. */
export function AuthLayout() {
  const { t, i18n } = useTranslation('shell');
  const changeLanguage = useChangeLanguage();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <div className="flex items-center justify-between px-5 py-4">
        <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
          <LogoMark /> Parley
        </span>
        <div>
          <label htmlFor="auth-language" className="sr-only">
            {t('language')}
          </label>
          <select
            id="auth-language"
            value={language}
            onChange={(e) => changeLanguage.mutate(e.target.value as Language)}
            className={cn(
              'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
              focusRing,
            )}
          >
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {t(`languages.${lng}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:items-center sm:pt-0">
        <div className="w-full max-w-sm rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
          <Suspense
            fallback={
              <div className="flex justify-center py-10">
                <Spinner className="h-6 w-6 text-blue-500" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
