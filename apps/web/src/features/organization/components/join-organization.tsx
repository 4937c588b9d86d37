import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { INVITATION_DAYS, INVITATION_KEY_MAX, INVITATION_KEY_MIN } from '@parley/contract';
import { Alert, Button, buttonClasses } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { forgetPendingJoin, joinPath, rememberPendingJoin } from '../../../lib/pending-join';
import { withReturnPath } from '../../../lib/safe-path';
import { useJoinOrganization } from '../api/organization-api';
import { TeamIcon } from './icons';

const refused = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

const wellFormed = (key: string | null): key is string =>
  key !== null && key.trim().length >= INVITATION_KEY_MIN && key.trim().length <= INVITATION_KEY_MAX;

/**
 * /join-organization?key=… for a signed-in person: one button accepts the invitation. The key goes only into the
 * call's body: never into the title, a message or a log. An answer (joined, "Not now", a refusal) forgets the
 * invitation this browser kept for after sign-in (lib/pending-join.ts).
 */
export function JoinOrganization({
  invitationKey,
  email,
  organizationPath,
  homePath,
}: {
  invitationKey: string | null;
  /** The signed-in address: the invitation must have been sent to it. */
  email: string | undefined;
  organizationPath: string;
  homePath: string;
}) {
  const { t } = useTranslation('organization');
  const navigate = useNavigate();
  const join = useJoinOrganization();
  const heading = useRef<HTMLHeadingElement>(null);

  const onJoin = () => {
    if (!wellFormed(invitationKey)) return;
    join.mutate(invitationKey.trim(), {
      onSuccess: (answer) => {
        forgetPendingJoin();
        toast.success(t('join.joined', { name: answer.data.organization.name }));
        navigate(organizationPath, { replace: true });
      },
      onError: (error) => {
        // A refusal is final (see below): nothing to come back to. A lost connection or a server error keeps it.
        if (refused(error)) forgetPendingJoin();
        heading.current?.focus();
      },
    });
  };

  // A refusal (invalid, another address, already in one, no seats) will not change by trying again; a lost
  // connection or a server error might.
  const final = refused(join.error);
  const stuck = final || !wellFormed(invitationKey);
  const home = (
    <Link
      to={homePath}
      onClick={stuck ? undefined : forgetPendingJoin}
      className={buttonClasses(stuck ? 'primary' : 'ghost')}
    >
      {stuck ? t('join.home') : t('join.later')}
    </Link>
  );

  return (
    <div className="space-y-4 text-center">
      <TeamIcon className="mx-auto h-10 w-10 text-blue-500" />
      <h1
        ref={heading}
        tabIndex={-1}
        className="text-xl font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50"
      >
        {t('join.title')}
      </h1>
      {!wellFormed(invitationKey) ? (
        <>
          <Alert tone="error">{t('join.badLink')}</Alert>
          {home}
        </>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('join.body')}</p>
          {email && (
            <p className="break-words text-sm text-zinc-600 dark:text-zinc-400">{t('join.signedInAs', { email })}</p>
          )}
          {join.error !== null && <Alert tone="error">{errorMessage(join.error)}</Alert>}
          <div className="flex flex-col gap-2">
            {!final && (
              <Button onClick={onJoin} loading={join.isPending}>
                {t('join.submit')}
              </Button>
            )}
            {home}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * /join-organization?key=… signed out: what the link is, and the ways in. A well-formed invitation is kept in this
 * browser (lib/pending-join.ts), so that after signing up, confirming the address from a second mail and signing in,
 * the person lands back here; logging in also carries it in ?next= as any protected page does.
 */
export function JoinOrganizationSignedOut({
  invitationKey,
  loginPath,
  signupPath,
}: {
  invitationKey: string | null;
  loginPath: string;
  signupPath: string;
}) {
  const { t } = useTranslation('organization');
  const valid = wellFormed(invitationKey);

  useEffect(() => {
    if (wellFormed(invitationKey)) rememberPendingJoin(invitationKey.trim(), INVITATION_DAYS);
  }, [invitationKey]);

  const back = valid ? joinPath(invitationKey.trim()) : null;
  return (
    <div className="space-y-4 text-center">
      <TeamIcon className="mx-auto h-10 w-10 text-blue-500" />
      <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">{t('join.title')}</h1>
      {!valid ? (
        <>
          <Alert tone="error">{t('join.badLink')}</Alert>
          <Link to={loginPath} className={buttonClasses('primary', 'w-full')}>
            {t('join.signedOut.logIn')}
          </Link>
        </>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('join.signedOut.body')}</p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('join.signedOut.kept', { days: INVITATION_DAYS })}
          </p>
          <div className="flex flex-col gap-2">
            <Link to={withReturnPath(loginPath, back)} className={buttonClasses('primary', 'w-full')}>
              {t('join.signedOut.logIn')}
            </Link>
            <Link to={withReturnPath(signupPath, back)} className={buttonClasses('secondary', 'w-full')}>
              {t('join.signedOut.signUp')}
            </Link>
          </div>
        </>
      )}
    </div>
  );
}
