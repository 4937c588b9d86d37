import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { Automation } from '@parley/contract';
import { formatFullDateTime } from '@parley/i18n';
import { Alert, Button, Card, CardTitle, SkeletonBar } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useAdminAutomations, useDeleteAutomation } from '../api/admin-api';

/** What an automation is about, in a line: its post's beginning, or the keyword of a daily run. */
const EXCERPT = 90;
const excerptOf = (a: Automation) => {
  const text = (a.text ?? a.keyword ?? '').replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
};

/** One person's LinkedIn automations (scheduled posts, daily runs), each deletable after a confirmation. */
export function UserAutomations({ userId, who }: { userId: string; who: string }) {
  // Kinds and statuses are the LinkedIn pages' words.
  const { t, i18n } = useTranslation(['admin', 'linkedin']);
  const lng = i18n.language;
  const list = useAdminAutomations(userId);
  const remove = useDeleteAutomation();
  const [deleting, setDeleting] = useState<Automation | null>(null);

  const when = (a: Automation) =>
    a.publishedAt
      ? t('automations.publishedAt', { date: formatFullDateTime(a.publishedAt, lng) })
      : a.runAt
        ? t('automations.runAt', { date: formatFullDateTime(a.runAt, lng) })
        : null;

  return (
    <Card>
      <CardTitle as="h3">{t('automations.title')}</CardTitle>
      {list.isError ? (
        <Alert tone="error" className="mt-3">
          {errorMessage(list.error)}
        </Alert>
      ) : !list.data ? (
        <div className="mt-3 space-y-2" aria-busy="true">
          <SkeletonBar className="h-4 w-2/3" />
          <SkeletonBar className="h-4 w-1/2" />
        </div>
      ) : list.data.automations.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">{t('automations.none')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-200 dark:divide-zinc-800">
          {list.data.automations.map((a) => (
            <li key={a.automationId} className="flex flex-wrap items-start justify-between gap-2 py-2">
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium text-zinc-900 dark:text-zinc-100">
                  {t(`linkedin:automations.kinds.${a.kind}`)} · {t(`linkedin:status.${a.status}`)}
                </p>
                {excerptOf(a) && <p className="break-words text-zinc-700 dark:text-zinc-300">{excerptOf(a)}</p>}
                {when(a) && <p className="text-xs text-zinc-500 dark:text-zinc-400">{when(a)}</p>}
              </div>
              <Button
                variant="secondary"
                onClick={() => setDeleting(a)}
                aria-label={t('automations.deleteOne', {
                  what: excerptOf(a) || t(`linkedin:automations.kinds.${a.kind}`),
                })}
              >
                {t('automations.delete')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('automations.confirmTitle')}
        description={t('automations.confirmBody', { who })}
        confirmLabel={t('automations.delete')}
        cancelLabel={t('cancel')}
        tone="danger"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.automationId, {
            onSuccess: (result) => {
              toast.success(result.message);
              setDeleting(null);
            },
            onError: (error) => {
              toast.error(errorMessage(error));
              setDeleting(null);
            },
          })
        }
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
}
