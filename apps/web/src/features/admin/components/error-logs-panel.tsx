import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { AdminErrorLog } from '@parley/contract';
import { formatDate, formatFullDateTime, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SkeletonBar, TextField } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useDeleteErrorLogs, useErrorLogs, type ErrorLogsQuery } from '../api/admin-api';
import { Pager } from './pager';

const PAGE_SIZE = 20;

type Filters = { status: string; path: string; search: string; from: string; to: string };
const NO_FILTERS: Filters = { status: '', path: '', search: '', from: '', to: '' };

/** A day picked in a date field ('2026-11-03'), as the instant it starts or ends where the admin is. */
const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

function toQuery(f: Filters, page: number): ErrorLogsQuery {
  const status = /^\d{3}$/.test(f.status.trim()) ? Number(f.status.trim()) : undefined;
  return {
    page,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(f.path.trim() ? { path: f.path.trim() } : {}),
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.from ? { from: dayStart(f.from) } : {}),
    ...(f.to ? { to: dayEnd(f.to) } : {}),
  };
}

type Deletion = { id: string; entry: AdminErrorLog } | { before: string };

/** Error logs: the server's unexpected errors, filtered; one deleted, or all before a date, after a confirmation. */
export function ErrorLogsPanel() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [beforeDay, setBeforeDay] = useState('');
  const [statusError, setStatusError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<Deletion | null>(null);
  const logs = useErrorLogs(toQuery(applied, page));
  const remove = useDeleteErrorLogs();

  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.status.trim() && !/^[1-5]\d\d$/.test(draft.status.trim())) {
      setStatusError(t('errors.statusInvalid'));
      return;
    }
    setStatusError(undefined);
    setApplied(draft);
    setPage(1);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate('id' in deleting ? { id: deleting.id } : { before: dayStart(deleting.before) }, {
      onSuccess: (result) => {
        toast.success(result.message);
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setDeleting(null);
      },
    });
  };

  return (
    <div className="space-y-4">
      <Card>
        <form onSubmit={apply} noValidate aria-label={t('errors.filters')} className="space-y-3">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            <TextField
              label={t('errors.status')}
              inputMode="numeric"
              maxLength={3}
              error={statusError}
              {...field('status')}
            />
            <TextField label={t('errors.path')} maxLength={200} {...field('path')} />
            <TextField label={t('errors.message')} maxLength={200} {...field('search')} />
            <TextField label={t('errors.from')} type="date" {...field('from')} />
            <TextField label={t('errors.to')} type="date" {...field('to')} />
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                setDraft(NO_FILTERS);
                setApplied(NO_FILTERS);
                setStatusError(undefined);
                setPage(1);
              }}
            >
              {t('errors.clear')}
            </Button>
            <Button type="submit">{t('errors.apply')}</Button>
          </div>
        </form>
      </Card>

      <Card>
        <form
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          aria-label={t('errors.deleteBeforeLabel')}
          onSubmit={(e) => {
            e.preventDefault();
            if (beforeDay) setDeleting({ before: beforeDay });
          }}
        >
          <div className="sm:flex-1">
            <TextField
              label={t('errors.deleteBeforeDate')}
              type="date"
              value={beforeDay}
              onChange={(e) => setBeforeDay(e.target.value)}
            />
          </div>
          <Button type="submit" variant="danger" disabled={!beforeDay}>
            {t('errors.deleteBefore')}
          </Button>
        </form>
      </Card>

      {logs.isError ? (
        <Alert tone="error">{errorMessage(logs.error)}</Alert>
      ) : !logs.data ? (
        <SkeletonBar className="h-24 w-full" />
      ) : logs.data.logs.length === 0 ? (
        <Card className="text-sm text-zinc-600 dark:text-zinc-400">{t('errors.none')}</Card>
      ) : (
        <>
          <ul className="space-y-2" aria-label={t('tabs.errors')}>
            {logs.data.logs.map((entry) => (
              <li key={entry.id}>
                <Card flush className="space-y-2 p-3">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="break-all font-mono text-sm text-zinc-900 dark:text-zinc-50">
                        {entry.status !== null && (
                          <span className="mr-2 rounded bg-red-50 px-1.5 py-0.5 text-xs font-semibold text-red-700 dark:bg-red-500/15 dark:text-red-300">
                            {entry.status}
                          </span>
                        )}
                        {entry.method} {entry.url}
                      </p>
                      <p className="text-xs text-zinc-500 dark:text-zinc-400">
                        <time dateTime={entry.at}>{formatFullDateTime(entry.at, lng)}</time>
                        {entry.requestId && <> · {t('errors.request', { id: entry.requestId })}</>}
                      </p>
                    </div>
                    <Button variant="ghost" onClick={() => setDeleting({ id: entry.id, entry })}>
                      {t('errors.delete')}
                    </Button>
                  </div>
                  <p className="break-words text-sm text-zinc-800 dark:text-zinc-200">{entry.message}</p>
                  {entry.stack && (
                    <details className="text-xs">
                      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">{t('errors.stack')}</summary>
                      <pre className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-2 text-zinc-700 dark:bg-zinc-950 dark:text-zinc-300">
                        {entry.stack}
                      </pre>
                    </details>
                  )}
                </Card>
              </li>
            ))}
          </ul>
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={logs.data.total}
            countLabel={t('errors.count', { formatted: formatNumber(logs.data.total, lng) })}
            onPage={setPage}
          />
        </>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={deleting && 'before' in deleting ? t('errors.confirmBefore.title') : t('errors.confirmOne.title')}
        description={
          deleting &&
          ('before' in deleting
            ? t('errors.confirmBefore.body', { date: formatDate(dayStart(deleting.before), lng) })
            : t('errors.confirmOne.body', { when: formatFullDateTime(deleting.entry.at, lng) }))
        }
        confirmLabel={t('errors.delete')}
        cancelLabel={t('cancel')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
