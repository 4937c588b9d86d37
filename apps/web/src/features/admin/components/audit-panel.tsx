import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_ACTIONS, type AuditEntry } from '@parley/contract';
import { formatFullDateTime, formatNumber } from '@parley/i18n';
import { Alert, Card, SelectField, SkeletonBar } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAudit } from '../api/admin-api';
import { Pager } from './pager';

const PAGE_SIZE = 25;

/** `user.credits` → the key of its label (i18next keys cannot hold dots). */
const actionKey = (action: string) => `auditActions.${action.replace(/\./g, '_')}`;

/** A value as the log shows it: numbers per language, objects as `key value` pairs, nothing as a dash. */
function useShow() {
  const { t, i18n } = useTranslation('admin');
  const show = (value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (typeof value === 'number') return formatNumber(value, i18n.language);
    if (typeof value === 'boolean') return value ? t('yes') : t('no');
    if (typeof value === 'string') return value;
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
  return (
    <ul className="mt-1 space-y-0.5 text-sm text-zinc-700 dark:text-zinc-300">
      {keys.map((key) => (
        <li key={key} className="break-words">
          <span className="text-zinc-500 dark:text-zinc-400">{t(`auditFields.${key}`, { defaultValue: key })}</span>{' '}
          {show(entry.before?.[key])} → {show(entry.after?.[key])}
        </li>
      ))}
    </ul>
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
            ...ADMIN_ACTIONS.map((a) => ({ value: a, label: t(actionKey(a)) })),
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
