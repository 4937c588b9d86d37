import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import type { Invitation, Team, TeamMember } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, cn, focusRing, SkeletonBar } from '@parley/ui';
import { PlusIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import {
  useInvitations,
  useLeaveOrganization,
  useMakeAdmin,
  useMakeUser,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useTeam,
} from '../api/organization-api';
import { EmptyState } from './empty-state';
import { TeamIcon } from './icons';
import { InvitationList } from './invitation-list';
import { InviteDialog } from './invite-dialog';
import { LimitDialog } from './limit-dialog';
import { MemberList, type MemberAction } from './member-list';
import { NoOrganization } from './no-organization';

const TABS = ['all', 'users', 'invited'] as const;
type Tab = (typeof TABS)[number];

type Question =
  | { kind: 'remove' | 'makeAdmin' | 'makeUser' | 'switchToUser'; member: TeamMember }
  | { kind: 'revoke'; invitation: Invitation }
  | { kind: 'leave' };

/** 'YYYY-MM' in the reader's words ("November 2026", "novembre 2026"). */
function monthName(month: string, lng: string): string {
  const [year, m] = month.split('-').map(Number);
  if (!year || !m) return month;
  return formatDate(new Date(Date.UTC(year, m - 1, 1)), lng, { year: 'numeric', month: 'long', timeZone: 'UTC' });
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-sm text-zinc-900 dark:text-zinc-50">{children}</dd>
    </div>
  );
}

function OrganizationView({
  team,
  selfId,
}: {
  team: Team & { organization: NonNullable<Team['organization']> };
  selfId: string;
}) {
  const { t, i18n } = useTranslation(['organization', 'plans']);
  const lng = i18n.language;
  const n = (value: number) => formatNumber(value, lng);
  const org = team.organization;
  const admin = team.role === 'admin';
  const owner = org.ownerId === selfId;
  const invitations = useInvitations(admin);
  const [params, setParams] = useSearchParams();
  const tabs: readonly Tab[] = admin ? TABS : TABS.filter((tab) => tab !== 'invited');
  const asked = params.get('tab');
  const tab: Tab = (tabs as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'all';
  const tabButtons = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  const [question, setQuestion] = useState<Question | null>(null);
  const [limitFor, setLimitFor] = useState<TeamMember | null>(null);
  const [inviting, setInviting] = useState(false);

  const remove = useRemoveMember();
  const makeAdmin = useMakeAdmin();
  const makeUser = useMakeUser();
  const revoke = useRevokeInvitation();
  const resend = useResendInvitation();
  const leave = useLeaveOrganization();
  const busy = remove.isPending || makeAdmin.isPending || makeUser.isPending || revoke.isPending || leave.isPending;

  const seatsTaken = org.members + org.pendingInvitations;
  const seatsLeft = Math.max(0, org.seats - seatsTaken);
  const users = team.members.filter((member) => member.role === 'user');

  const select = (next: Tab, focus = false) => {
    setParams(next === 'all' ? {} : { tab: next }, { replace: true });
    if (focus) tabButtons.current[next]?.focus();
  };
  const onTabKey = (event: KeyboardEvent) => {
    const i = tabs.indexOf(tab);
    const to =
      event.key === 'ArrowRight'
        ? tabs[(i + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(i + tabs.length - 1) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs[tabs.length - 1]
              : undefined;
    if (!to) return;
    event.preventDefault();
    select(to, true);
  };

  const onMemberAction = (action: MemberAction, member: TeamMember) => {
    if (action === 'setLimit') setLimitFor(member);
    else setQuestion({ kind: action, member });
  };

  const done = (answer: { message: string }) => {
    if (answer.message) toast.success(answer.message);
    setQuestion(null);
  };
  const failed = (error: unknown) => {
    toast.error(errorMessage(error));
    setQuestion(null);
  };
  const callbacks = { onSuccess: done, onError: failed };

  const confirm = () => {
    if (!question) return;
    if (question.kind === 'remove') remove.mutate(question.member.id, callbacks);
    else if (question.kind === 'makeAdmin') makeAdmin.mutate(question.member.id, callbacks);
    else if (question.kind === 'makeUser' || question.kind === 'switchToUser') {
      makeUser.mutate(question.member.id, callbacks);
    } else if (question.kind === 'revoke') revoke.mutate(question.invitation.id, callbacks);
    else leave.mutate(org.id, callbacks);
  };

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation.id, {
      onSuccess: (answer) => toast.success(answer.message || t('invitations.resent')),
      onError: (error) => toast.error(errorMessage(error)),
    });

  const wording = (q: Question) => {
    const who = 'member' in q ? q.member.name || q.member.email : '';
    switch (q.kind) {
      case 'remove':
        return {
          title: t('confirm.remove.title', { name: who }),
          body: t('confirm.remove.body', { name: who, email: q.member.email }),
          confirm: t('actions.remove'),
          tone: 'danger' as const,
        };
      case 'makeAdmin':
        return {
          title: t('confirm.makeAdmin.title', { name: who }),
          body: t('confirm.makeAdmin.body', { name: who }),
          confirm: t('actions.makeAdmin'),
          tone: 'primary' as const,
        };
      case 'makeUser':
        return {
          title: t('confirm.makeUser.title', { name: who }),
          body: t('confirm.makeUser.body', { name: who }),
          confirm: t('actions.makeUser'),
          tone: 'primary' as const,
        };
      case 'switchToUser':
        return {
          title: t('confirm.switchToUser.title'),
          body: t('confirm.switchToUser.body'),
          confirm: t('actions.switchToUser'),
          tone: 'danger' as const,
        };
      case 'revoke':
        return {
          title: t('confirm.revoke.title'),
          body: t('confirm.revoke.body', { email: q.invitation.email }),
          confirm: t('invitations.revoke'),
          tone: 'danger' as const,
        };
      case 'leave':
        return {
          title: t('confirm.leave.title', { name: org.name }),
          body: t('confirm.leave.body', { name: org.name }),
          confirm: t('leave'),
          tone: 'danger' as const,
        };
    }
  };
  const open = question ? wording(question) : null;

  const count = (tabName: Tab) =>
    tabName === 'all' ? team.members.length : tabName === 'users' ? users.length : org.pendingInvitations;

  return (
    <>
      <Card className="space-y-5">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h2 className="break-words text-xl font-semibold text-zinc-900 dark:text-zinc-50">{org.name}</h2>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
              {t('summary.plan', { plan: t(`plans:names.${org.plan}`) })}
              {' · '}
              {t('summary.yourRole', { role: t(`roles.${team.role ?? 'user'}`) })}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {admin && (
              <Button onClick={() => setInviting(true)}>
                <PlusIcon width="1em" height="1em" />
                {t('newMember')}
              </Button>
            )}
            {!owner && (
              <Button variant="secondary" onClick={() => setQuestion({ kind: 'leave' })}>
                {t('leave')}
              </Button>
            )}
          </div>
        </div>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Fact label={t('summary.seatsLabel')}>
            <span className="font-medium">{t('summary.seats', { used: n(seatsTaken), seats: n(org.seats) })}</span>
            <div aria-hidden="true" className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800">
              <div
                className={cn('h-full rounded-full', seatsLeft === 0 ? 'bg-amber-500' : 'bg-blue-500')}
                style={{ width: `${org.seats > 0 ? Math.min(100, Math.round((seatsTaken / org.seats) * 100)) : 0}%` }}
              />
            </div>
          </Fact>
          <Fact label={t('summary.peopleLabel')}>
            {t('summary.people', { members: n(org.members), pending: n(org.pendingInvitations) })}
          </Fact>
          <Fact label={t('summary.monthLabel')}>{monthName(team.month, lng)}</Fact>
        </dl>
        {owner && <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('summary.ownerNote')}</p>}
      </Card>

      <Card flush>
        <div
          role="tablist"
          aria-label={t('tabs.label')}
          onKeyDown={onTabKey}
          className="flex flex-wrap gap-x-1 border-b border-zinc-200 px-2 pt-1 dark:border-zinc-800"
        >
          {tabs.map((name) => (
            <button
              key={name}
              ref={(el) => {
                tabButtons.current[name] = el;
              }}
              id={`org-tab-${name}`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls={`org-panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => select(name)}
              className={cn(
                '-mb-px flex shrink-0 items-center gap-2 whitespace-nowrap rounded-t-md border-b-2 px-2.5 py-2.5 text-sm font-medium sm:px-3',
                focusRing,
                tab === name
                  ? 'border-blue-500 text-blue-700 dark:text-blue-300'
                  : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
              )}
            >
              {t(`tabs.${name}`)}
              <span className="rounded-full bg-zinc-100 px-1.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                {n(count(name))}
              </span>
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`org-panel-${tab}`} aria-labelledby={`org-tab-${tab}`}>
          {tab === 'all' && (
            <>
              <MemberList
                members={team.members}
                selfId={selfId}
                admin={admin}
                label={t('tabs.all')}
                onAction={onMemberAction}
              />
              {team.members.length <= 1 && (
                <div className="border-t border-zinc-100 dark:border-zinc-800">
                  <EmptyState
                    icon={<TeamIcon />}
                    title={t('members.aloneTitle')}
                    body={admin ? t('members.aloneBodyAdmin') : t('members.aloneBody')}
                  >
                    {admin && (
                      <Button variant="secondary" className="mt-2" onClick={() => setInviting(true)}>
                        {t('newMember')}
                      </Button>
                    )}
                  </EmptyState>
                </div>
              )}
            </>
          )}
          {tab === 'users' &&
            (users.length > 0 ? (
              <MemberList
                members={users}
                selfId={selfId}
                admin={admin}
                label={t('tabs.users')}
                onAction={onMemberAction}
              />
            ) : (
              <EmptyState icon={<TeamIcon />} title={t('members.noUsersTitle')} body={t('members.noUsersBody')} />
            ))}
          {tab === 'invited' && admin && (
            <InvitationList
              invitations={invitations.data?.invitations}
              error={invitations.error}
              resending={resend.isPending ? (resend.variables ?? null) : null}
              onRetry={() => void invitations.refetch()}
              onResend={onResend}
              onRevoke={(invitation) => setQuestion({ kind: 'revoke', invitation })}
            />
          )}
        </div>
      </Card>

      <ConfirmDialog
        open={open !== null}
        title={open?.title ?? ''}
        description={open?.body}
        confirmLabel={open?.confirm ?? ''}
        cancelLabel={t('cancel')}
        tone={open?.tone ?? 'primary'}
        busy={busy}
        onConfirm={confirm}
        onCancel={() => setQuestion(null)}
      />
      <LimitDialog member={limitFor} onClose={() => setLimitFor(null)} />
      {admin && <InviteDialog open={inviting} seatsLeft={seatsLeft} onClose={() => setInviting(false)} />}
    </>
  );
}

/**
 * /organization (spec §2 Manage Organization): the organization, its seats and month, All Team Members, Team Users
 * and (admins) Invited Users, New Member and Leave Organization. Admins act on members from each row's menu, every
 * change of role, removal or revocation after a confirmation; everyone else reads. Someone in no organization
 * creates one (Team plan) or learns how to get one.
 */
export function ManageOrganization({ selfId, plansPath }: { selfId: string; plansPath: string }) {
  const { t } = useTranslation('organization');
  const team = useTeam();

  let body: ReactNode;
  if (team.isError) {
    body = (
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(team.error)}</p>
        <Button variant="secondary" onClick={() => void team.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (!team.data) {
    body = (
      <Card className="space-y-3" aria-busy="true">
        <SkeletonBar className="h-6 w-1/3" />
        <SkeletonBar className="h-4 w-1/2" />
        <SkeletonBar className="h-4 w-2/3" />
      </Card>
    );
  } else if (!team.data.organization) {
    body = <NoOrganization canCreate={team.data.canCreate} plansPath={plansPath} />;
  } else {
    body = <OrganizationView team={{ ...team.data, organization: team.data.organization }} selfId={selfId} />;
  }

  return (
    <div className="mx-auto max-w-5xl space-y-5 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('pageTitle')}</h1>
      {body}
    </div>
  );
}
