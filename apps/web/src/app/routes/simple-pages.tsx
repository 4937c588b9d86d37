import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { buttonClasses } from '@parley/ui';
import { apiClient, errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { sameSitePath } from '../../lib/safe-path';
import { clearSession, useToken } from '../../lib/session';
import { toast } from '../../lib/toast';
import { BootSpinner } from '../boot-spinner';

/** `/`: the app when signed in, else the login page. */
export function IndexRedirect() {
  return <Navigate to={useToken() ? '/home' : '/login'} replace />;
}

/**
 * `/settings…`, as people type it: the settings live at the spec's `/setting…`; the rest of the address (sub-page,
 * query, fragment) is kept.
 */
export function SettingsAlias() {
  const { pathname, search, hash } = useLocation();
  return <Navigate to={`/setting${pathname.slice('/settings'.length)}${search}${hash}`} replace />;
}

/** Any unknown path: /not-found?page=<that path>. */
export function CatchAll() {
  const { pathname, search } = useLocation();
  return <Navigate to={`/not-found?page=${encodeURIComponent(pathname + search)}`} replace />;
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const token = useToken();
  const [params] = useSearchParams();
  const page = params.get('page');
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <div className="flex items-center gap-5">
        <h1 className="border-r border-zinc-300 pr-5 text-3xl font-semibold text-zinc-900 dark:border-zinc-700 dark:text-zinc-50">
          404
        </h1>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('notFound.message')}</p>
      </div>
      {page && <p className="max-w-md break-all font-mono text-xs text-zinc-500">{page}</p>}
      <Link to={token ? '/home' : '/login'} className={buttonClasses('secondary')}>
        {token ? t('notFound.home') : t('notFound.login')}
      </Link>
    </div>
  );
}

/** /redirect?page=/x: to that page when it is on this site, otherwise to /install. */
export function RedirectPage() {
  const [params] = useSearchParams();
  return <Navigate to={sameSitePath(params.get('page')) ?? '/install'} replace />;
}

/** /signout: ends the session on the server, says so, and goes to /login. */
export function SignoutPage() {
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    apiClient
      .request('logout')
      .then((result) => {
        if (result.message) toast.success(result.message);
      })
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => {
        clearSession();
        queryClient.clear();
        navigate('/login', { replace: true });
      });
  }, [navigate]);
  return <BootSpinner />;
}
