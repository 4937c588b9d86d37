import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminOrganizationMembers, Invitation, TeamMember } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, ArrowLeftIcon, Button, Card, CardTitle, SkeletonBar, cn } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAdminOrganization, useAdminUserPlan } from '../api/admin-api';
import { Fact, Facts } from './facts';
import { PlanFacts } from './plan-facts';

const shortDate = { year: 'numeric', month: 'short', day: 'numeric' } as const;
const badge = 'rounded-full px-2 py-0.5 text-xs font-medium';

/** The plan that pays for a member in this organization (its owner's), read when the member's "Plan" is opened. */
function MemberPlan({ id, member, org }: { id: string; member: TeamMember; org: string }) {
  const { t } = useTranslation('admin');
  const plan = useAdminUserPlan(member.id, org);
  return (
    <div id={id} className="mt-3 rounded-lg bg-zinc-50 px-3 py-1 dark:bg-zinc-800/60">
      <p className="pt-2 text-xs text-zinc-600 dark:text-zinc-400">
        {t('organizations.memberPlan', { name: member.name || member.email })}
      </p>
      {plan.isError ? (
        <Alert tone="error" className="my-2">
          {errorMessage(plan.error)}
        </Alert>
      ) : !plan.data ? (
        <div className="space-y-2 py-2" aria-busy="true">
          <SkeletonBar className="h-4 w-1/2" />
          <SkeletonBar className="h-4 w-2/3" />
        </div>
      ) : (
        <PlanFacts plan={plan.data.plan} />
      )}
    </div>
  );
}

function MemberRow({ member, org }: { member: TeamMember; org: string }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const [planOpen, setPlanOpen] = useState(false);
  const planId = useId();
  const label = (text: string) => <span className="text-zinc-500 md:sr-only dark:text-zinc-400">{text}: </span>;
  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-3 shadow-xs dark:border-zinc-800 dark:bg-zinc-900">
      <div className="grid gap-x-4 gap-y-1 md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr_1fr_auto] md:items-center">
        <span className="min-w-0">
          <span className="block truncate font-medium text-zinc-900 dark:text-zinc-50">
            {member.name || member.email}
            {member.isOwner && (
              <span className={cn(badge, 'ml-2 bg-amber-50 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300')}>
                {t('organizations.owner')}
              </span>
            )}
          </span>
          <span className="block truncate text-sm text-zinc-600 dark:text-zinc-400">{member.email}</span>
        </span>
        <span className="text-sm text-zinc-700 dark:text-zinc-300">
          {label(t('fields.role'))}
          {t(`organizations.roles.${member.role}`)}
        </span>
        <span className="text-sm text-zinc-700 dark:text-zinc-300">
          {label(t('organizations.joined'))}
          {formatDate(member.joinedAt, lng, shortDate)}
        </span>
        <span className="text-sm text-zinc-700 dark:text-zinc-300">
          {label(t('organizations.limit'))}
          {member.limit === null ? t('organizations.noLimit') : formatNumber(member.limit, lng)}
        </span>
        <span className="text-sm text-zinc-700 dark:text-zinc-300">
          {label(t('organizations.used'))}
          {member.used === null ? '—' : formatNumber(member.used, lng)}
        </span>
        <span className="pt-1 md:pt-0">
          <Button
            variant="secondary"
            className="px-3 py-1.5"
            aria-expanded={planOpen}
            aria-controls={planOpen ? planId : undefined}
            onClick={() => setPlanOpen((open) => !open)}
          >
            {t('organizations.plan')}
            <span className="sr-only">: {member.name || member.email}</span>
          </Button>
        </span>
      </div>
      {planOpen && <MemberPlan id={planId} member={member} org={org} />}
    </li>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <span className="min-w-0">
        <span className="block break-all text-sm font-medium text-zinc-900 dark:text-zinc-50">{invitation.email}</span>
        {invitation.invitedBy && (
          <span className="block text-xs text-zinc-500 dark:text-zinc-400">
            {t('organizations.invitedBy', { name: invitation.invitedBy })}
          </span>
        )}
      </span>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-700 sm:justify-end dark:text-zinc-300">
        <span>{t('organizations.sent', { date: formatDate(invitation.sentAt, lng, shortDate) })}</span>
        {invitation.expired ? (
          <span className={cn(badge, 'bg-red-50 text-red-700 dark:bg-red-500/15 dark:text-red-300')}>
            {t('organizations.expired')}
          </span>
        ) : (
          <span>{t('organizations.expires', { date: formatDate(invitation.expiresAt, lng, shortDate) })}</span>
        )}
      </span>
    </li>
  );
}

function Details({ data }: { data: AdminOrganizationMembers }) {
  const { t, i18n } = useTranslation(['admin', 'plans']);
  const lng = i18n.language;
  const { organization: org, members, invitations } = data;
  const owner = members.find((m) => m.isOwner);
  const number = (n: number) => formatNumber(n, lng);
  return (
    <>
      <Card>
        <CardTitle as="h3">{t('organizations.facts')}</CardTitle>
        <Facts>
          <Fact label={t('fields.plan')}>{t(`plans:names.${org.plan}`)}</Fact>
          <Fact label={t('organizations.owner')}>
            {owner ? (
              <>
                {owner.name || owner.email}
                <span className="block break-all font-normal text-zinc-600 dark:text-zinc-400">{owner.email}</span>
              </>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label={t('organizations.columns.members')}>
            {t('organizations.membersOfSeats', { members: number(org.members), seats: number(org.seats) })}
          </Fact>
          <Fact label={t('organizations.pending')}>{number(org.pendingInvitations)}</Fact>
          <Fact label={t('organizations.columns.created')}>{formatDate(org.createdAt, lng)}</Fact>
          <Fact label={t('organizations.id')}>
            <span className="break-all font-mono text-xs">{org.id}</span>
          </Fact>
        </Facts>
      </Card>

      <section aria-labelledby="admin-org-members" className="space-y-2">
        <h3 id="admin-org-members" className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
          {t('organizations.membersTitle')}
        </h3>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('organizations.usedNote')}</p>
        {members.length === 0 ? (
          <Card className="text-sm text-zinc-600 dark:text-zinc-400">{t('organizations.noMembers')}</Card>
        ) : (
          <>
            <div
              aria-hidden="true"
              className="hidden gap-x-4 px-3 text-xs font-medium uppercase tracking-wide text-zinc-500 md:grid md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr_1fr_auto] dark:text-zinc-400"
            >
              <span>{t('organizations.person')}</span>
              <span>{t('fields.role')}</span>
              <span>{t('organizations.joined')}</span>
              <span>{t('organizations.limit')}</span>
              <span>{t('organizations.used')}</span>
              {/* As wide as the rows' Plan button, so the columns line up. */}
              <span className="invisible px-3">{t('organizations.plan')}</span>
            </div>
            <ul className="space-y-2" aria-label={t('organizations.membersTitle')}>
              {members.map((m) => (
                <MemberRow key={m.id} member={m} org={org.id} />
              ))}
            </ul>
          </>
        )}
      </section>

      <Card>
        <CardTitle as="h3">{t('organizations.invitations')}</CardTitle>
        {invitations.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('organizations.noInvitations')}</p>
        ) : (
          <ul
            className="mt-1 divide-y divide-zinc-100 dark:divide-zinc-800"
            aria-label={t('organizations.invitations')}
          >
            {invitations.map((i) => (
              <InvitationRow key={i.id} invitation={i} />
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

/** One organization: who pays and how many seats, its members with their use this month, its pending invitations. */
export function OrganizationDetails({ id, onBack }: { id: string; onBack: () => void }) {
  const { t } = useTranslation('admin');
  const org = useAdminOrganization(id);
  const heading = useRef<HTMLHeadingElement>(null);
  const name = org.data?.organization.name;

  // The heading takes focus once the name is there to read.
  useEffect(() => {
    if (name !== undefined) heading.current?.focus();
  }, [name]);

  return (
    <section aria-labelledby="admin-org-heading" className="space-y-4">
      <Button variant="ghost" onClick={onBack} className="-ml-2">
        <ArrowLeftIcon width="1em" height="1em" />
        {t('organizations.back')}
      </Button>
      {org.isError ? (
        <>
          <h2 id="admin-org-heading" className="sr-only">
            {t('tabs.organizations')}
          </h2>
          <Alert tone="error">{errorMessage(org.error)}</Alert>
        </>
      ) : !org.data ? (
        <div className="space-y-3" aria-busy="true">
          <SkeletonBar className="h-7 w-1/3" />
          <SkeletonBar className="h-40 w-full" />
        </div>
      ) : (
        <>
          <h2
            id="admin-org-heading"
            ref={heading}
            tabIndex={-1}
            className="break-words text-xl font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50"
          >
            {org.data.organization.name}
          </h2>
          <Details data={org.data} />
        </>
      )}
    </section>
  );
}
