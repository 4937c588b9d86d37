import { useTranslation } from 'react-i18next';
import type { TeamMember } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { cn } from '@parley/ui';
import { ActionsMenu, type MenuAction } from './actions-menu';
import { Badge } from './badge';

export type MemberAction = 'makeAdmin' | 'makeUser' | 'switchToUser' | 'setLimit' | 'remove';

/** What an admin may do about a member; nobody else gets any action. */
export function memberActions(member: TeamMember, selfId: string): MemberAction[] {
  const self = member.id === selfId;
  const actions: MemberAction[] = [];
  if (member.role === 'user') actions.push('makeAdmin');
  else actions.push(self ? 'switchToUser' : 'makeUser');
  actions.push('setLimit');
  // The owner pays for the organization and stays; one leaves oneself with Leave Organization.
  if (!member.isOwner && !self) actions.push('remove');
  return actions;
}

/** This month's use against the limit, as words and (with a limit) a small bar. */
function Usage({ used, limit }: { used: number; limit: number | null }) {
  const { t, i18n } = useTranslation('organization');
  const n = (value: number) => formatNumber(value, i18n.language);
  const share = limit === null ? 0 : limit === 0 ? (used > 0 ? 1 : 0) : Math.min(1, used / limit);
  const over = limit !== null && used >= limit && (limit > 0 || used > 0);
  return (
    <div className="min-w-0 space-y-1">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {limit === null
          ? t('members.usedNoLimit', { used: n(used) })
          : t('members.usedOfLimit', { used: n(used), limit: n(limit) })}
      </p>
      {limit !== null && (
        <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800">
          <div
            className={cn('h-full rounded-full', over ? 'bg-red-500' : share > 0.8 ? 'bg-amber-500' : 'bg-blue-500')}
            style={{ width: `${Math.round(share * 100)}%` }}
          />
        </div>
      )}
    </div>
  );
}

function initials(name: string, email: string): string {
  const source = name.trim() || email;
  return source.charAt(0).toLocaleUpperCase();
}

/**
 * Members as rows: name, address, role, join date; for admins also each one's limit and use this month and an actions
 * menu. `admin` false: read only.
 */
export function MemberList({
  members,
  selfId,
  admin,
  label,
  onAction,
}: {
  members: TeamMember[];
  selfId: string;
  admin: boolean;
  label: string;
  onAction: (action: MemberAction, member: TeamMember) => void;
}) {
  const { t, i18n } = useTranslation('organization');
  return (
    <ul aria-label={label} className="divide-y divide-zinc-100 dark:divide-zinc-800">
      {members.map((member) => {
        const self = member.id === selfId;
        const actions: MenuAction[] = admin
          ? memberActions(member, selfId).map((action) => ({
              key: action,
              label: t(`actions.${action}`),
              danger: action === 'remove',
              onSelect: () => onAction(action, member),
            }))
          : [];
        return (
          <li
            key={member.id}
            className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-2 px-4 py-3 sm:grid-cols-[auto_minmax(0,1fr)_16rem_auto] sm:items-center sm:px-5"
          >
            <span
              aria-hidden="true"
              className="flex h-9 w-9 items-center justify-center rounded-full bg-blue-100 text-sm font-semibold text-blue-700 dark:bg-blue-950 dark:text-blue-300"
            >
              {initials(member.name, member.email)}
            </span>
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="break-words font-medium text-zinc-900 dark:text-zinc-50">
                  {member.name || member.email}
                </span>
                {self && <Badge>{t('members.you')}</Badge>}
                <Badge tone={member.role === 'admin' ? 'blue' : 'zinc'}>{t(`roles.${member.role}`)}</Badge>
                {member.isOwner && <Badge tone="amber">{t('members.owner')}</Badge>}
              </p>
              <p className="break-all text-sm text-zinc-600 dark:text-zinc-400">{member.email}</p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('members.joined', { date: formatDate(member.joinedAt, i18n.language) })}
              </p>
            </div>
            {member.used !== null ? (
              <div className="col-span-2 col-start-2 row-start-2 sm:col-span-1 sm:col-start-3 sm:row-start-1">
                <Usage used={member.used} limit={member.limit} />
              </div>
            ) : (
              <span className="hidden sm:block" />
            )}
            <div className="col-start-3 row-start-1 sm:col-start-4">
              <ActionsMenu label={t('actions.menu', { name: member.name || member.email })} actions={actions} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
