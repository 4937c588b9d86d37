import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAdminOrganizations, type OrganizationsQuery } from '../api/admin-api';
import { CreateOrganizationForm } from './create-organization-form';
import { OrganizationDetails } from './organization-details';
import { Pager } from './pager';

const PAGE_SIZE = 20;
const COLUMNS = 'md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr]';

/**
 * Organizations: searched by name and paged, each with its members, seats and plan; one opens its members and
 * invitations; a site admin creates one for a person. The open organization is in the address (?org=), so the audit
 * log can link to it and a reload keeps it open.
 */
export function OrganizationsPanel() {
  const { t, i18n } = useTranslation(['admin', 'plans']);
  const lng = i18n.language;
  const [params, setParams] = useSearchParams();
  const openId = params.get('org');
  const [query, setQuery] = useState<OrganizationsQuery>({ search: '', page: 1, pageSize: PAGE_SIZE });
  const [typed, setTyped] = useState('');
  const [creating, setCreating] = useState(false);
  /** Where focus goes back to: the list item that was opened, or the Create button. */
  const returnTo = useRef<string | null>(null);
  const orgs = useAdminOrganizations(query);

  const setOpen = (id: string | null) =>
    setParams(id ? { tab: 'organizations', org: id } : { tab: 'organizations' }, { replace: true });
  const refocus = () =>
    requestAnimationFrame(() => document.getElementById(returnTo.current ?? 'admin-org-create-button')?.focus());

  if (openId) {
    return (
      <OrganizationDetails
        key={openId}
        id={openId}
        onBack={() => {
          setOpen(null);
          refocus();
        }}
      />
    );
  }

  if (creating) {
    return (
      <CreateOrganizationForm
        onCreated={(id) => {
          setCreating(false);
          returnTo.current = `admin-org-${id}`;
          setOpen(id);
        }}
        onCancel={() => {
          setCreating(false);
          returnTo.current = null;
          refocus();
        }}
      />
    );
  }

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery((q) => ({ ...q, search: typed.trim(), page: 1 }));
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <form onSubmit={search} role="search" className="flex flex-1 items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label={t('organizations.search')}
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              maxLength={200}
            />
          </div>
          <Button type="submit" variant="secondary">
            {t('users.searchButton')}
          </Button>
        </form>
        <Button
          id="admin-org-create-button"
          onClick={() => {
            returnTo.current = null;
            setCreating(true);
          }}
        >
          {t('organizations.create')}
        </Button>
      </div>

      {orgs.isError ? (
        <Alert tone="error">{errorMessage(orgs.error)}</Alert>
      ) : !orgs.data ? (
        <div className="space-y-2" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <SkeletonBar key={i} className="h-14 w-full" />
          ))}
        </div>
      ) : orgs.data.organizations.length === 0 ? (
        <Card className="text-sm text-zinc-600 dark:text-zinc-400">
          {query.search ? t('organizations.noneMatch') : t('organizations.none')}
        </Card>
      ) : (
        <>
          <div
            aria-hidden="true"
            className={cn(
              'hidden gap-x-4 px-3 text-xs font-medium uppercase tracking-wide text-zinc-500 md:grid dark:text-zinc-400',
              COLUMNS,
            )}
          >
            <span>{t('organizations.columns.name')}</span>
            <span>{t('organizations.columns.members')}</span>
            <span>{t('fields.plan')}</span>
            <span>{t('organizations.columns.created')}</span>
          </div>
          <ul className="space-y-2" aria-label={t('organizations.listLabel')}>
            {orgs.data.organizations.map((o) => (
              <li key={o.id}>
                <button
                  id={`admin-org-${o.id}`}
                  type="button"
                  onClick={() => {
                    returnTo.current = `admin-org-${o.id}`;
                    setOpen(o.id);
                  }}
                  className={cn(
                    'grid w-full gap-x-4 gap-y-1 rounded-xl border border-zinc-200 bg-white p-3 text-left shadow-xs hover:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800/60',
                    COLUMNS,
                    focusRing,
                  )}
                >
                  <span className="truncate font-medium text-zinc-900 dark:text-zinc-50">{o.name}</span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">
                      {t('organizations.columns.members')}:{' '}
                    </span>
                    {t('organizations.membersOfSeats', {
                      members: formatNumber(o.members, lng),
                      seats: formatNumber(o.seats, lng),
                    })}
                  </span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">{t('fields.plan')}: </span>
                    {o.plan ? t(`plans:names.${o.plan}`) : t('organizations.noPlan')}
                  </span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">
                      {t('organizations.columns.created')}:{' '}
                    </span>
                    {formatDate(o.createdAt, lng, { year: 'numeric', month: 'short', day: 'numeric' })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <Pager
            page={query.page}
            pageSize={query.pageSize}
            total={orgs.data.total}
            countLabel={t('organizations.count', { formatted: formatNumber(orgs.data.total, lng) })}
            onPage={(page) => setQuery((q) => ({ ...q, page }))}
          />
        </>
      )}
    </div>
  );
}
