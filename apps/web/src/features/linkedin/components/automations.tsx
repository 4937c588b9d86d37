import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AUTOMATION_STATUSES, type Automation } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Button, Card, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useAutomations, useDeleteAutomation, useDisableDailyRun, useRetryAutomation } from '../api/linkedin-api';
import { browserTimeZone, useLoaderWhile } from '../lib/linkedin-lib';
import { LINKEDIN_PATHS } from '../paths';
import { CallError, Empty, LinkedinSection, StatusBadge } from './section';
import { Tabs } from './tabs';

/** A time zone the browser knows, or null. */
function knownZone(timeZone: string | null | undefined): string | null {
  if (!timeZone) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return null;
  }
}

/**
 * When it runs or ran, in the person's language and the automation's time zone, which is named: "Nov 26, 2026,
 * 3:29 PM (Europe/Paris)" (the browser may be elsewhere).
 */
export function useWhen() {
  const { t, i18n } = useTranslation('linkedin');
  return (iso: string | null, timeZone?: string | null) => {
    if (!iso) return '—';
    const zone = knownZone(timeZone) ?? browserTimeZone();
    const time = formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
    if (!time) return '—';
    return t('format.inZone', { time, zone: zone.replace(/_/g, ' ') });
  };
}

/**
 * The automations with their status; one that failed can be tried again, the daily run can be stopped, any can be
 * deleted (spec §4, §7).
 */
export function AutomationList({ automations, empty }: { automations: Automation[]; empty?: string }) {
  const { t } = useTranslation('linkedin');
  const when = useWhen();
  const disable = useDisableDailyRun();
  const retry = useRetryAutomation();
  const remove = useDeleteAutomation();
  const [deleting, setDeleting] = useState<Automation | null>(null);

  if (automations.length === 0) return <Empty>{empty ?? t('automations.none')}</Empty>;
  return (
    <>
      <ul className="space-y-3" aria-label={t('automations.listLabel')}>
        {automations.map((a) => (
          <li key={a.automationId}>
            <Card className="space-y-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
                  {t(`automations.kinds.${a.kind}`)}
                  {a.keyword && <span className="font-normal text-zinc-500"> · {a.keyword}</span>}
                </p>
                <StatusBadge status={a.status} />
              </div>
              {a.text && (
                <p className="line-clamp-3 whitespace-pre-wrap text-sm text-zinc-700 dark:text-zinc-300">{a.text}</p>
              )}
              <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-xs text-zinc-500 sm:grid-cols-3">
                <div>
                  <dt className="inline">{t('format.label', { label: t('automations.runAt') })} </dt>
                  <dd className="inline">{when(a.runAt, a.timezone)}</dd>
                </div>
                <div>
                  <dt className="inline">{t('format.label', { label: t('automations.repeat') })} </dt>
                  <dd className="inline">{t(`posts.repeats.${a.repeat}`)}</dd>
                </div>
                {a.publishedAt && (
                  <div>
                    <dt className="inline">{t('format.label', { label: t('automations.publishedAt') })} </dt>
                    <dd className="inline">{when(a.publishedAt, a.timezone)}</dd>
                  </div>
                )}
              </dl>
              {a.status === 'Error' && a.error && (
                <p className="text-sm text-red-700 dark:text-red-300">
                  {t(`automations.errors.${a.error}`, { defaultValue: t('automations.errors.unknown') })}{' '}
                  {(a.error === 'LINKEDIN_LOGIN_NEEDED' || a.error === 'LINKEDIN_NOT_CONNECTED') && (
                    <Link to={LINKEDIN_PATHS.connect} className={cn('font-medium underline', focusRing)}>
                      {t('connect.again')}
                    </Link>
                  )}
                </p>
              )}
              <div className="flex flex-wrap items-center gap-2">
                {a.kind === 'post' && a.status === 'Pending' && (
                  <Link
                    to={LINKEDIN_PATHS.post(a.automationId)}
                    className={cn('rounded-md px-2 py-1 text-sm font-medium text-blue-600 underline', focusRing)}
                  >
                    {t('automations.edit')}
                  </Link>
                )}
                {a.postUrl && (
                  <a
                    href={a.postUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className={cn('rounded-md px-2 py-1 text-sm font-medium text-blue-600 underline', focusRing)}
                  >
                    {t('automations.openPost')}
                  </a>
                )}
                {a.status === 'Error' && (
                  <Button
                    variant="secondary"
                    className="px-3 py-1"
                    loading={retry.isPending && retry.variables === a.automationId}
                    onClick={() =>
                      retry.mutate(a.automationId, {
                        onSuccess: () => toast.success(t('automations.retried')),
                      })
                    }
                  >
                    {t('automations.retry')}
                  </Button>
                )}
                {a.dailyRun && (
                  <Button
                    variant="secondary"
                    className="px-3 py-1"
                    loading={disable.isPending && disable.variables === a.automationId}
                    onClick={() =>
                      disable.mutate(a.automationId, {
                        onSuccess: () => toast.success(t('automations.dailyRunStopped')),
                      })
                    }
                  >
                    {t('automations.disableDailyRun')}
                  </Button>
                )}
                <Button variant="ghost" className="px-3 py-1 text-red-600" onClick={() => setDeleting(a)}>
                  {t('automations.delete')}
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      {retry.isError && <CallError error={retry.error} />}
      {disable.isError && <CallError error={disable.error} />}
      {remove.isError && <CallError error={remove.error} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('automations.deleteTitle')}
        description={t('automations.deleteText')}
        confirmLabel={t('automations.delete')}
        cancelLabel={t('common:actions.cancel')}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.automationId, {
            onSettled: () => setDeleting(null),
            onSuccess: () => toast.success(t('automations.deleted')),
          })
        }
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** Counts by status (Overview Status). */
export function StatusOverview({ automations }: { automations: Automation[] }) {
  const { t, i18n } = useTranslation('linkedin');
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {AUTOMATION_STATUSES.map((status) => (
        <Card key={status} className="space-y-1">
          <dt className="text-sm text-zinc-500">{t(`status.${status}`)}</dt>
          <dd className="text-2xl font-semibold text-zinc-900 dark:text-zinc-50">
            {formatNumber(automations.filter((a) => a.status === status).length, i18n.language)}
          </dd>
        </Card>
      ))}
    </dl>
  );
}

/** The link to write a new scheduled post, in the actions of the pages that list them. */
export function NewPostLink() {
  const { t } = useTranslation('linkedin');
  return (
    <Link
      to={LINKEDIN_PATHS.newPost}
      className={cn('rounded-md bg-blue-500 px-4 py-2 text-sm font-medium text-white hover:bg-blue-600', focusRing)}
    >
      {t('posts.new')}
    </Link>
  );
}

/** /automation/li-automation: Post Automation and Overview Status. */
export function AutomationsPage() {
  const { t } = useTranslation('linkedin');
  const automations = useAutomations();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'status' ? 'status' : 'posts';
  useLoaderWhile(automations.isPending, 'automation');
  const list = automations.data ?? [];
  return (
    <LinkedinSection title={t('automations.title')} actions={<NewPostLink />}>
      {automations.isError && <CallError error={automations.error} />}
      <Tabs
        label={t('automations.title')}
        value={tab}
        onChange={(next) => setParams(next === 'posts' ? {} : { tab: next }, { replace: true })}
        tabs={[
          {
            id: 'posts',
            label: t('automations.postTab'),
            content: <AutomationList automations={list.filter((a) => a.kind === 'post')} empty={t('posts.none')} />,
          },
          {
            id: 'status',
            label: t('automations.statusTab'),
            content: (
              <div className="space-y-4">
                <StatusOverview automations={list} />
                <AutomationList automations={list} />
              </div>
            ),
          },
        ]}
      />
    </LinkedinSection>
  );
}
