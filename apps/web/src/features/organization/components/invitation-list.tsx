import { useTranslation } from 'react-i18next';
import type { Invitation } from '@parley/contract';
import { formatDate } from '@parley/i18n';
import { Alert, Button, SkeletonBar } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { Badge } from './badge';
import { EmptyState } from './empty-state';
import { MailIcon } from './icons';

/** Invited Users (admins): each address with when it was sent and until when the link works; Resend, Revoke. */
export function InvitationList({
  invitations,
  error,
  resending,
  onRetry,
  onResend,
  onRevoke,
}: {
  invitations: Invitation[] | undefined;
  error: unknown;
  /** The invitation being sent again, if any. */
  resending: string | null;
  onRetry: () => void;
  onResend: (invitation: Invitation) => void;
  onRevoke: (invitation: Invitation) => void;
}) {
  const { t, i18n } = useTranslation('organization');
  const date = (value: string) => formatDate(value, i18n.language);

  if (error) {
    return (
      <div className="p-4 sm:p-5">
        <Alert tone="error" className="space-y-2">
          <p>{errorMessage(error)}</p>
          <Button variant="secondary" onClick={onRetry}>
            {t('retry')}
          </Button>
        </Alert>
      </div>
    );
  }
  if (!invitations) {
    return (
      <div className="space-y-3 p-5" aria-busy="true">
        <SkeletonBar className="h-4 w-1/2" />
        <SkeletonBar className="h-4 w-2/3" />
      </div>
    );
  }
  if (invitations.length === 0) {
    return <EmptyState icon={<MailIcon />} title={t('invitations.emptyTitle')} body={t('invitations.emptyBody')} />;
  }
  return (
    <ul aria-label={t('tabs.invited')} className="divide-y divide-zinc-100 dark:divide-zinc-800">
      {invitations.map((invitation) => (
        <li
          key={invitation.id}
          className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5"
        >
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <span className="break-all font-medium text-zinc-900 dark:text-zinc-50">{invitation.email}</span>
              {invitation.expired && <Badge tone="red">{t('invitations.expired')}</Badge>}
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {t('invitations.sent', { date: date(invitation.sentAt) })}
              {' · '}
              {invitation.expired
                ? t('invitations.expiredOn', { date: date(invitation.expiresAt) })
                : t('invitations.expires', { date: date(invitation.expiresAt) })}
            </p>
            {invitation.invitedBy && (
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('invitations.invitedBy', { name: invitation.invitedBy })}
              </p>
            )}
          </div>
          <div className="flex shrink-0 gap-2">
            <Button
              variant="secondary"
              className="px-3 py-1.5"
              loading={resending === invitation.id}
              aria-label={t('invitations.resendTo', { email: invitation.email })}
              onClick={() => onResend(invitation)}
            >
              {t('invitations.resend')}
            </Button>
            <Button
              variant="ghost"
              className="px-3 py-1.5"
              aria-label={t('invitations.revokeTo', { email: invitation.email })}
              onClick={() => onRevoke(invitation)}
            >
              {t('invitations.revoke')}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
