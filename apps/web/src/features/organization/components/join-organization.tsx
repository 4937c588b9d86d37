import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { INVITATION_KEY_MAX, INVITATION_KEY_MIN } from '@parley/contract';
import { Alert, Button, buttonClasses } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { useJoinOrganization } from '../api/organization-api';
import { TeamIcon } from './icons';

const wellFormed = (key: string | null): key is string =>
  key !== null && key.trim().length >= INVITATION_KEY_MIN && key.trim().length <= INVITATION_KEY_MAX;

/**
 * /join-organization?key=… for a signed-in person (signed out, the route sends them to sign in and back here): one
 * button accepts the invitation. The key goes only into the call's body: never into the title, a message or a log.
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
        toast.success(t('join.joined', { name: answer.data.organization.name }));
        navigate(organizationPath, { replace: true });
      },
      onError: () => heading.current?.focus(),
    });
  };

  // A refusal (invalid, another address, already in one, no seats) will not change by trying again; a lost
  // connection or a server error might.
  const final = join.error instanceof ApiError && join.error.status >= 400 && join.error.status < 500;
  const stuck = final || !wellFormed(invitationKey);
  const home = (
    <Link to={homePath} className={buttonClasses(stuck ? 'primary' : 'ghost')}>
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
