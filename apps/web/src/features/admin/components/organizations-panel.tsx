import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, Card, SkeletonBar } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAdminOrganizations } from '../api/admin-api';
import { Pager } from './pager';

const PAGE_SIZE = 20;

/** Organizations: each with its members, seats and plan; a note when this server has none to list. */
export function OrganizationsPanel() {
  const { t, i18n } = useTranslation(['admin', 'plans']);
  const lng = i18n.language;
  const [page, setPage] = useState(1);
  const orgs = useAdminOrganizations({ search: '', page, pageSize: PAGE_SIZE });

  if (orgs.isError) return <Alert tone="error">{errorMessage(orgs.error)}</Alert>;
  if (!orgs.data) return <SkeletonBar className="h-24 w-full" />;
  if (!orgs.data.available) return <Alert tone="info">{t('organizations.unavailable')}</Alert>;
  if (orgs.data.organizations.length === 0) {
    return <Card className="text-sm text-zinc-600 dark:text-zinc-400">{t('organizations.none')}</Card>;
  }
  return (
    <div className="space-y-2">
      <ul className="space-y-2" aria-label={t('tabs.organizations')}>
        {orgs.data.organizations.map((o) => (
          <li key={o.id}>
            <Card className="grid gap-1 p-3 md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr]" flush>
              <span className="truncate font-medium text-zinc-900 dark:text-zinc-50">{o.name}</span>
              <span className="text-sm text-zinc-700 dark:text-zinc-300">
                {t('organizations.members', {
                  members: formatNumber(o.members, lng),
                  seats: formatNumber(o.seats, lng),
                })}
              </span>
              <span className="text-sm text-zinc-700 dark:text-zinc-300">
                {o.plan ? t(`plans:names.${o.plan}`) : '—'}
              </span>
              <span className="text-sm text-zinc-700 dark:text-zinc-300">{formatDate(o.createdAt, lng)}</span>
            </Card>
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={orgs.data.total}
        countLabel={t('organizations.count', { formatted: formatNumber(orgs.data.total, lng) })}
        onPage={setPage}
      />
    </div>
  );
}
