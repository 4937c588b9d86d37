import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_USER_SORTS, type AdminUser, type AdminUserSort } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SelectField, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAdminUsers, type UsersQuery } from '../api/admin-api';
import { Pager } from './pager';
import { UserDetails } from './user-details';

const PAGE_SIZE = 20;

/** Users: search, sort and page everyone; a person opens their details and actions. */
export function UsersPanel({ adminId }: { adminId: string }) {
  const { t, i18n } = useTranslation(['admin', 'plans']);
  const lng = i18n.language;
  const [query, setQuery] = useState<UsersQuery>({
    search: '',
    sort: 'createdAt',
    order: 'desc',
    page: 1,
    pageSize: PAGE_SIZE,
  });
  const [typed, setTyped] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const lastOpened = useRef<AdminUser | null>(null);
  const listItem = useRef<string | null>(null);
  const users = useAdminUsers(query);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery((q) => ({ ...q, search: typed.trim(), page: 1 }));
  };

  // The open person as the list now has them (fresh after each action), or as last seen (deleted, other page).
  const open = openId ? (users.data?.users.find((u) => u.id === openId) ?? lastOpened.current) : null;
  if (open) lastOpened.current = open;

  if (open) {
    return (
      <UserDetails
        key={open.id}
        user={open}
        self={open.id === adminId}
        onBack={() => {
          setOpenId(null);
          // Back to where the person was in the list.
          requestAnimationFrame(() => document.getElementById(`admin-user-${listItem.current}`)?.focus());
        }}
      />
    );
  }

  const sortOptions = ADMIN_USER_SORTS.map((s) => ({ value: s, label: t(`users.sort.${s}`) }));
  return (
    <div className="space-y-4">
      <form onSubmit={search} role="search" className="grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end">
        <TextField
          label={t('users.search')}
          type="search"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          maxLength={200}
        />
        <SelectField
          label={t('users.sortBy')}
          options={sortOptions}
          value={query.sort}
          onChange={(e) => setQuery((q) => ({ ...q, sort: e.target.value as AdminUserSort, page: 1 }))}
        />
        <SelectField
          label={t('users.order')}
          options={[
            { value: 'desc', label: t('users.desc') },
            { value: 'asc', label: t('users.asc') },
          ]}
          value={query.order}
          onChange={(e) => setQuery((q) => ({ ...q, order: e.target.value as 'asc' | 'desc', page: 1 }))}
        />
        <Button type="submit">{t('users.searchButton')}</Button>
      </form>

      {users.isError ? (
        <Alert tone="error">{errorMessage(users.error)}</Alert>
      ) : !users.data ? (
        <div className="space-y-2" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <SkeletonBar key={i} className="h-16 w-full" />
          ))}
        </div>
      ) : users.data.users.length === 0 ? (
        <Card className="text-sm text-zinc-600 dark:text-zinc-400">{t('users.none')}</Card>
      ) : (
        <>
          <div
            aria-hidden="true"
            className="hidden gap-x-4 px-3 text-xs font-medium uppercase tracking-wide text-zinc-500 md:grid md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr] dark:text-zinc-400"
          >
            <span>{t('users.person')}</span>
            <span>{t('fields.plan')}</span>
            <span>{t('users.use30')}</span>
            <span>{t('fields.joined')}</span>
          </div>
          <ul className="space-y-2" aria-label={t('users.listLabel')}>
            {users.data.users.map((u) => (
              <li key={u.id}>
                <button
                  id={`admin-user-${u.id}`}
                  type="button"
                  onClick={() => {
                    listItem.current = u.id;
                    setOpenId(u.id);
                  }}
                  className={cn(
                    'grid w-full gap-x-4 gap-y-1 rounded-xl border border-zinc-200 bg-white p-3 text-left shadow-xs hover:bg-zinc-50 md:grid-cols-[minmax(0,2fr)_1fr_1fr_1fr] dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800/60',
                    focusRing,
                  )}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium text-zinc-900 dark:text-zinc-50">
                      {u.name}
                      {u.role === 'admin' && (
                        <span className="ml-2 rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700 dark:bg-blue-500/15 dark:text-blue-300">
                          {t('roles.admin')}
                        </span>
                      )}
                    </span>
                    <span className="block truncate text-sm text-zinc-600 dark:text-zinc-400">{u.email}</span>
                  </span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">{t('fields.plan')}: </span>
                    {t(`plans:names.${u.plan}`)}
                  </span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">{t('users.use30')}: </span>
                    {formatNumber(u.monthlyUse, lng)}
                  </span>
                  <span className="text-sm text-zinc-700 dark:text-zinc-300">
                    <span className="text-zinc-500 md:sr-only dark:text-zinc-400">{t('fields.joined')}: </span>
                    {formatDate(u.joinDate, lng, { year: 'numeric', month: 'short', day: 'numeric' })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <Pager
            page={query.page}
            pageSize={query.pageSize}
            total={users.data.total}
            countLabel={t('users.count', { formatted: formatNumber(users.data.total, lng) })}
            onPage={(page) => setQuery((q) => ({ ...q, page }))}
          />
        </>
      )}
    </div>
  );
}
