import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { cn, focusRing } from '@parley/ui';
import { AuditPanel } from './audit-panel';
import { ErrorLogsPanel } from './error-logs-panel';
import { OrganizationsPanel } from './organizations-panel';
import { UsersPanel } from './users-panel';

const TABS = ['users', 'organizations', 'errors', 'audit'] as const;
type Tab = (typeof TABS)[number];

/**
 * /admin-portal (spec §2, §6): Users, Organizations, Error logs and Audit, as tabs (arrow keys move between them, as
 * in any tab list). The open tab is in the address (?tab=), so a reload or a shared link opens the same one.
 */
export function AdminPortal({ adminId }: { adminId: string }) {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'users';
  const buttons = useRef<Record<Tab, HTMLButtonElement | null>>({
    users: null,
    organizations: null,
    errors: null,
    audit: null,
  });

  const select = (next: Tab, focus = false) => {
    setParams(next === 'users' ? {} : { tab: next }, { replace: true });
    if (focus) buttons.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const to =
      event.key === 'ArrowRight'
        ? TABS[(i + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(i + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : undefined;
    if (!to) return;
    event.preventDefault();
    select(to, true);
  };

  return (
    <div className="mx-auto max-w-6xl space-y-5 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('title')}</h1>
      <div
        role="tablist"
        aria-label={t('title')}
        onKeyDown={onKeyDown}
        className="-mx-1 flex gap-1 overflow-x-auto border-b border-zinc-200 px-1 dark:border-zinc-800"
      >
        {TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              buttons.current[name] = el;
            }}
            id={`admin-tab-${name}`}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={`admin-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => select(name)}
            className={cn(
              '-mb-px shrink-0 whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium',
              focusRing,
              tab === name
                ? 'border-blue-500 text-blue-700 dark:text-blue-300'
                : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            )}
          >
            {t(`tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'users' && <UsersPanel adminId={adminId} />}
        {tab === 'organizations' && <OrganizationsPanel />}
        {tab === 'errors' && <ErrorLogsPanel />}
        {tab === 'audit' && <AuditPanel />}
      </div>
    </div>
  );
}
