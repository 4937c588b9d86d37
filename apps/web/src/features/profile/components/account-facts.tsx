import { useTranslation } from 'react-i18next';
import type { Profile } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Card, CardTitle } from '@parley/ui';

function Flag({ on, label }: { on: boolean; label: string }) {
  const { t } = useTranslation('profile');
  return (
    <li className="flex items-center justify-between gap-3 py-2 text-sm">
      <span className="text-zinc-600 dark:text-zinc-400">{label}</span>
      <span
        className={
          on
            ? 'rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300'
            : 'rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400'
        }
      >
        {on ? t('flags.yes') : t('flags.no')}
      </span>
    </li>
  );
}

/** Read-only account facts: join date, login count and the flags an admin sets. */
export function AccountFacts({ user }: { user: Profile }) {
  const { t, i18n } = useTranslation('profile');
  return (
    <Card>
      <CardTitle>{t('account.title')}</CardTitle>
      <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
        <li className="flex items-center justify-between gap-3 py-2 text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">{t('account.joinDate')}</span>
          <span className="font-medium text-zinc-900 dark:text-zinc-100">
            {formatDate(user.joinDate, i18n.language)}
          </span>
        </li>
        <li className="flex items-center justify-between gap-3 py-2 text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">{t('account.loginCount')}</span>
          <span className="font-medium tabular-nums text-zinc-900 dark:text-zinc-100">
            {formatNumber(user.loginCount, i18n.language)}
          </span>
        </li>
        <Flag on={user.verified} label={t('flags.verified')} />
        <Flag on={user.lifetimeUser} label={t('flags.lifetime')} />
        <Flag on={user.multipleLogin} label={t('flags.multipleLogin')} />
      </ul>
    </Card>
  );
}
