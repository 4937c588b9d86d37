import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_ACTIONS, ORG_ACTIONS, type AuditEntry } from '@parley/contract';
import { formatFullDateTime, formatNumber } from '@parley/i18n';
import { Alert, Card, SelectField, SkeletonBar, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAudit } from '../api/admin-api';
import { Pager } from './pager';

const PAGE_SIZE = 25;
const ACTIONS = [...ADMIN_ACTIONS, ...ORG_ACTIONS];
/** A time as the server writes it (sentAt): shown as a date and time in the reader's language. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** `user.credits` → the key of its label (i18next keys cannot hold dots). */
const actionKey = (action: string) => `auditActions.${action.replace(/\./g, '_')}`;

/** A value as the log shows it: numbers per language, objects as `key value` pairs, nothing as a dash. */
function useShow() {
  const { t, i18n } = useTranslation('admin');
  const show = (value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (typeof value === 'number') return formatNumber(value, i18n.language);
    if (typeof value === 'boolean') return value ? t('yes') : t('no');
    if (typeof value === 'string') return ISO_TIME.test(value) ? formatFullDateTime(value, i18n.language) : value;
    if (Array.isArray(value)) return value.map(show).join(', ');
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k} ${show(v)}`)
      .join(' · ');
  };
  return show;
}

/** What changed, key by key: "basicCredit 30 → 0". */
function Change({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const show = useShow();
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (!keys.length) return null;
  // An organization's roles and "no limit" in words; everything else as it was recorded.
  const inOrganization = entry.action.startsWith('organization.');
  const value = (side: AuditEntry['before'], key: string) => {
    const v = side?.[key];
    if (inOrganization && key === 'role' && typeof v === 'string')
      return t(`organizations.roles.${v}`, { defaultValue: v });
    if (inOrganization && key === 'limit' && side && key in side && v === null) return t('organizations.noLimit');
    return show(v);
  };
  return (
    <ul className="mt-1 space-y-0.5 text-sm text-zinc-700 dark:text-zinc-300">
      {keys.map((key) => (
        <li key={key} className="break-words">
          <span className="text-zinc-500 dark:text-zinc-400">{t(`auditFields.${key}`, { defaultValue: key })}</span>{' '}
          {value(entry.before, key)} → {value(entry.after, key)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The organization an action was about, as a link that opens it in the Organizations tab: by its name when the entry
 * records one (a creation), by its id otherwise.
 */
function OrganizationTarget({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const id = entry.organizationId!;
  const recorded = entry.after?.name ?? entry.before?.name;
  const name = entry.action.startsWith('organization.') && typeof recorded === 'string' ? recorded : null;
  return (
    <>
      {' '}
      · {t('audit.organization')}{' '}
      <Link
        to={{ search: `?tab=organizations&org=${encodeURIComponent(id)}` }}
        className={cn('rounded-sm text-blue-700 underline hover:no-underline dark:text-blue-300', focusRing)}
      >
        <span className={name ? 'break-words' : 'break-all font-mono text-xs'}>{name ?? id}</span>
      </Link>
    </>
  );
}

/** Audit: who did what, to whom, before and after, when — newest first. */
export function AuditPanel() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const [page, setPage] = useState(1);
  const [action, setAction] = useState('');
  const audit = useAudit({ page, pageSize: PAGE_SIZE, ...(action ? { action } : {}) });

  return (
    <div className="space-y-4">
      <div className="max-w-xs">
        <SelectField
          label={t('audit.action')}
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setPage(1);
          }}
          options={[
            { value: '', label: t('audit.all') },
            ...ACTIONS.map((a) => ({ value: a, label: t(actionKey(a)) })),
          ]}
        />
      </div>
      {audit.isError ? (
        <Alert tone="error">{errorMessage(audit.error)}</Alert>
      ) : !audit.data ? (
        <SkeletonBar className="h-24 w-full" />
      ) : audit.data.entries.length === 0 ? (
        <Card className="text-sm text-zinc-600 dark:text-zinc-400">{t('audit.none')}</Card>
      ) : (
        <>
          <ol className="space-y-2" aria-label={t('tabs.audit')}>
            {audit.data.entries.map((entry) => (
              <li key={entry.id}>
                <Card flush className="p-3">
                  <p className="text-sm text-zinc-900 dark:text-zinc-50">
                    <span className="font-medium">{t(actionKey(entry.action), { defaultValue: entry.action })}</span>
                    {entry.targetEmail && (
                      <>
                        {' '}
                        · <span className="break-all">{entry.targetEmail}</span>
                      </>
                    )}
                    {entry.organizationId && <OrganizationTarget entry={entry} />}
                  </p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">
                    {t('audit.by', { email: entry.actorEmail })} ·{' '}
                    <time dateTime={entry.at}>{formatFullDateTime(entry.at, lng)}</time>
                  </p>
                  <Change entry={entry} />
                </Card>
              </li>
            ))}
          </ol>
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={audit.data.total}
            countLabel={t('audit.count', { formatted: formatNumber(audit.data.total, lng) })}
            onPage={setPage}
          />
        </>
      )}
    </div>
  );
}
