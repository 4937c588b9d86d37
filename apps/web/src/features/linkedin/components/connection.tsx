import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { LinkedinConnection } from '@parley/contract';
import { formatDate } from '@parley/i18n';
import { Alert, Button, Card, CardTitle, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useWithLoader } from '../../../lib/global-loader';
import { useConnect, useConnection, useDisconnect, useLinkedinCallback } from '../api/linkedin-api';
import { browser, useLoaderWhile } from '../lib/linkedin-lib';
import { LINKEDIN_PATHS } from '../paths';
import { CallError, LinkedinSection, useErrorText } from './section';

/** Where LinkedIn sends the browser back: the app's own address (the server's PUBLIC_URL). */
const redirectUrl = () => `${window.location.origin}${LINKEDIN_PATHS.redirect}`;

/** The connection in one sentence: connected (until when), login needed (since when), or not connected. */
export function ConnectionState({ connection }: { connection: LinkedinConnection }) {
  const { t, i18n } = useTranslation('linkedin');
  const date = connection.expiresAt ? formatDate(connection.expiresAt, i18n.language) : '';
  if (connection.state === 'connected') {
    return (
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        <span className="mr-2 inline-flex rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200">
          {t('connection.connected')}
        </span>
        {date && t('connection.until', { date })}
      </p>
    );
  }
  if (connection.state === 'loginNeeded') {
    return (
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        <span className="mr-2 inline-flex rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-500/15 dark:text-amber-200">
          {t('connection.loginNeeded')}
        </span>
        {date && t('connection.expired', { date })}
      </p>
    );
  }
  return <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('connection.none')}</p>;
}

/** The member's picture, or the first letter of their name when there is none or it does not load. */
export function Avatar({
  name,
  picture,
  size = 'size-12',
}: {
  name: string | null;
  picture: string | null;
  size?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (picture && !failed) {
    return (
      <img
        src={picture}
        alt=""
        onError={() => setFailed(true)}
        className={cn(size, 'shrink-0 rounded-full object-cover')}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        size,
        'flex shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-700 dark:bg-blue-500/20 dark:text-blue-200',
      )}
    >
      {(name || '?').charAt(0).toUpperCase()}
    </span>
  );
}

/** The connected account: picture, name, e-mail, state. */
export function AccountCard({ connection, actions = true }: { connection: LinkedinConnection; actions?: boolean }) {
  const { t } = useTranslation('linkedin');
  return (
    <Card className="space-y-3">
      <CardTitle>{t('connection.account')}</CardTitle>
      {connection.state !== 'none' && (
        <div className="flex items-center gap-3">
          <Avatar name={connection.name} picture={connection.picture} />
          <div className="min-w-0">
            <p className="truncate font-medium text-zinc-900 dark:text-zinc-100">{connection.name ?? '—'}</p>
            {connection.email && <p className="truncate text-sm text-zinc-500">{connection.email}</p>}
          </div>
        </div>
      )}
      <ConnectionState connection={connection} />
      {connection.state === 'connected' && !connection.canPost && (
        <p className="text-sm text-amber-700 dark:text-amber-300">{t('connection.cannotPost')}</p>
      )}
      {actions && (
        <div className="flex flex-wrap gap-2">
          {connection.state !== 'connected' ? (
            <Link to={LINKEDIN_PATHS.connect} className={cn('text-sm font-medium text-blue-600 underline', focusRing)}>
              {connection.state === 'loginNeeded' ? t('connect.again') : t('connect.action')}
            </Link>
          ) : (
            <Link to={LINKEDIN_PATHS.logout} className={cn('text-sm font-medium text-red-600 underline', focusRing)}>
              {t('logout.action')}
            </Link>
          )}
        </div>
      )}
    </Card>
  );
}

/** Without LinkedIn's client id and secret on the server: how to set it up. */
export function SetupHelp() {
  const { t } = useTranslation('linkedin');
  return (
    <Card className="space-y-3">
      <CardTitle>{t('setup.title')}</CardTitle>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('setup.intro')}</p>
      <ol className="list-decimal space-y-2 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        <li>{t('setup.app')}</li>
        <li>
          {t('setup.redirect')}{' '}
          <code className="break-all rounded bg-zinc-100 px-1 py-0.5 dark:bg-zinc-800">{`${redirectUrl()}`}</code>{' '}
          {t('setup.publicUrl')}
        </li>
        <li>{t('setup.products')}</li>
        <li>
          {t('setup.env')}
          <pre className="mt-1 overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
            {'LINKEDIN_CLIENT_ID=…\nLINKEDIN_CLIENT_SECRET=…'}
          </pre>
        </li>
        <li>{t('setup.restart')}</li>
      </ol>
    </Card>
  );
}

/** /automation/linkedin-access-1: the connection, and connecting or connecting again. */
export function ConnectPage() {
  const { t } = useTranslation('linkedin');
  const connection = useConnection();
  const connect = useConnect();
  const withLoader = useWithLoader();
  useLoaderWhile(connection.isPending, 'connect');

  const start = async () => {
    try {
      const { url } = await withLoader('connect', () => connect.mutateAsync());
      browser.go(url);
    } catch {
      // The error shows under the button.
    }
  };

  const data = connection.data;
  return (
    <LinkedinSection title={t('connect.title')} intro={t('connect.intro')}>
      {connection.isError && <CallError error={connection.error} />}
      {data && !data.configured && <SetupHelp />}
      {data && data.configured && (
        <div className="grid gap-4 md:grid-cols-2">
          <AccountCard connection={data} actions={false} />
          <Card className="space-y-3">
            <CardTitle>{t('connect.what')}</CardTitle>
            <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
              <li>{t('connect.point1')}</li>
              <li>{t('connect.point2')}</li>
              <li>{t('connect.point3')}</li>
            </ul>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void start()} loading={connect.isPending}>
                {data.state === 'connected'
                  ? t('connect.reconnect')
                  : data.state === 'loginNeeded'
                    ? t('connect.again')
                    : t('connect.action')}
              </Button>
              {data.state !== 'none' && (
                <Link
                  to={LINKEDIN_PATHS.logout}
                  className={cn('inline-flex items-center px-2 text-sm font-medium text-red-600 underline', focusRing)}
                >
                  {t('logout.action')}
                </Link>
              )}
            </div>
            {connect.isError && <CallError error={connect.error} />}
          </Card>
        </div>
      )}
    </LinkedinSection>
  );
}

/** /linkedin-auth-redirect: LinkedIn sends the browser back here with `code` and `state` (or `error`). */
export function AuthRedirectPage() {
  const { t } = useTranslation('linkedin');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const callback = useLinkedinCallback();
  const errorText = useErrorText();
  const started = useRef(false);
  const [problem, setProblem] = useState<string | null>(null);
  const code = params.get('code');
  const state = params.get('state');
  const refused = params.get('error');
  useLoaderWhile(callback.isPending, 'connect');

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (refused || !code || !state) {
      setProblem(
        refused === 'user_cancelled_login' || refused === 'user_cancelled_authorize'
          ? t('redirect.cancelled')
          : t('redirect.missing'),
      );
      return;
    }
    // The promise, not mutate's callbacks: it settles even if the page was hidden and shown again meanwhile.
    callback.mutateAsync({ code, state }).then(
      () => {
        toast.success(t('redirect.done'));
        void navigate(LINKEDIN_PATHS.dashboard, { replace: true });
      },
      (error: unknown) => setProblem(errorText(error)),
    );
    // Once: a code can be exchanged only once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mx-auto max-w-5xl space-y-5 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('redirect.title')}</h1>
      {problem ? (
        <>
          <Alert tone="error">{problem}</Alert>
          <div className="flex flex-wrap gap-3">
            <Link to={LINKEDIN_PATHS.connect} className={cn('text-sm font-medium text-blue-600 underline', focusRing)}>
              {t('connect.again')}
            </Link>
            <Link
              to={LINKEDIN_PATHS.dashboard}
              className={cn('text-sm font-medium text-blue-600 underline', focusRing)}
            >
              {t('redirect.toDashboard')}
            </Link>
          </div>
        </>
      ) : (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('redirect.working')}
        </p>
      )}
    </div>
  );
}

/** /automation/linkedInLogout: disconnect, after a confirmation. */
export function LogoutPage() {
  const { t } = useTranslation('linkedin');
  const connection = useConnection();
  const disconnect = useDisconnect();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  useLoaderWhile(connection.isPending, 'general');

  const confirm = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        setAsking(false);
        toast.success(t('logout.done'));
        void navigate(LINKEDIN_PATHS.connect, { replace: true });
      },
      onError: () => setAsking(false),
    });

  const data = connection.data;
  return (
    <LinkedinSection title={t('logout.title')}>
      {connection.isError && <CallError error={connection.error} />}
      {data && data.state === 'none' && (
        <Card className="space-y-3">
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('logout.notConnected')}</p>
          <Link to={LINKEDIN_PATHS.connect} className={cn('text-sm font-medium text-blue-600 underline', focusRing)}>
            {t('connect.action')}
          </Link>
        </Card>
      )}
      {data && data.state !== 'none' && (
        <Card className="space-y-3">
          <AccountCard connection={data} actions={false} />
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('logout.explain')}</p>
          <Button variant="danger" onClick={() => setAsking(true)}>
            {t('logout.action')}
          </Button>
          {disconnect.isError && <CallError error={disconnect.error} />}
        </Card>
      )}
      <ConfirmDialog
        open={asking}
        title={t('logout.confirmTitle')}
        description={t('logout.confirmText')}
        confirmLabel={t('logout.confirm')}
        cancelLabel={t('common:actions.cancel')}
        busy={disconnect.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </LinkedinSection>
  );
}
