import { StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { LoginResult } from '@parley/contract';
import { isLanguage, type Language } from '@parley/i18n';
import { LogoMark, Spinner } from '@parley/ui';
import { LoginForm } from '../features/auth/components/login-form';
import { LanguagePicker } from '../features/shell/components/language-picker';
import { applyLanguage, initI18n } from '../lib/i18n';
import { usePageTitle } from '../lib/page-title';
import { landingAfterSignIn, NEXT_PARAM, returnPath } from '../lib/safe-path';
import { startSession } from '../lib/session';

/**
 * The login page on its own, for a signed-out visitor who opens /login (or /): the page everyone sees first. It loads
 * React, the translations and the form, and none of the app (router, query cache, toasts, shell), which loads when the
 * visitor signs in or follows a link (docs/decisions/021). Inside the app, /login is routes/login.tsx with the same
 * form and layout.
 */

function PlainLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  return (
    <a href={to} className={className}>
      {children}
    </a>
  );
}

/** The same frame as the app's AuthLayout: brand, language picker, a centred card. */
function SignInFrame({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation('shell');
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <div className="flex h-14 items-center justify-between px-5">
        <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
          <LogoMark /> Parley
        </span>
        {/* Signed out, so the choice lives in the language cookie only (applyLanguage). */}
        <LanguagePicker id="auth-language" value={language} onChange={(lng) => void applyLanguage(lng)} />
      </div>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:items-center sm:pt-0">
        <div className="w-full max-w-sm rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
          {children}
        </div>
      </main>
    </div>
  );
}

function SignInPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('login.pageTitle'));
  const next = returnPath(new URLSearchParams(window.location.search).get(NEXT_PARAM));
  const onSignedIn = (result: LoginResult) => {
    startSession(result.token, result.user);
    // The app loads with the session in place; replace() so Back does not return to the form.
    window.location.replace(landingAfterSignIn(result.user, next));
  };
  return (
    <SignInFrame>
      <LoginForm onSignedIn={onSignedIn} Link={PlainLink} next={next} />
    </SignInFrame>
  );
}

function Boot() {
  return (
    <div className="fixed inset-0 flex items-center justify-center bg-white dark:bg-zinc-950" aria-busy="true">
      <Spinner className="h-8 w-8 text-blue-500" />
    </div>
  );
}

export function startSignInApp(root: HTMLElement) {
  // The root path goes to the login page (spec §2).
  if (window.location.pathname !== '/login') {
    window.history.replaceState(null, '', `/login${window.location.search}${window.location.hash}`);
  }
  const i18n = initI18n();
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<Boot />}>
          <SignInPage />
        </Suspense>
      </I18nextProvider>
    </StrictMode>,
  );
}
