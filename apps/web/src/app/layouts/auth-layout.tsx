import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { isLanguage, type Language } from '@parley/i18n';
import { LogoMark, Spinner } from '@parley/ui';
import { LanguagePicker } from '../../features/shell';
import { useChangeLanguage } from '../../lib/use-change-language';

/** Sign-in pages: a centred card with the brand and a language picker. */
export function AuthLayout() {
  const { i18n } = useTranslation('shell');
  const changeLanguage = useChangeLanguage();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <div className="flex h-14 items-center justify-between px-5">
        <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
          <LogoMark /> Parley
        </span>
        <LanguagePicker id="auth-language" value={language} onChange={(lng) => changeLanguage.mutate(lng)} />
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
