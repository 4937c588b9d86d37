import { useTranslation } from 'react-i18next';
import type { Profile } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Card } from '@parley/ui';

const CREDIT_KEYS = ['dailyCredit', 'basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;
const USAGE_KEYS = ['basicUse', 'advanceUse', 'extraAdvanceUse'] as const;

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card className="space-y-1">
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums tracking-tight text-zinc-900 dark:text-zinc-50">{value}</dd>
      {hint && <dd className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</dd>}
    </Card>
  );
}

/** The AI dashboard: greeting, remaining credits and this month's usage. */
export function Dashboard({ user }: { user: Profile }) {
  const { t, i18n } = useTranslation('home');
  const lng = i18n.language;
  // monthlyUse is defined as the sum of the three counters (spec §3); computed here so it always adds up.
  const monthlyUse = user.basicUse + user.advanceUse + user.extraAdvanceUse;

  return (
    <div className="mx-auto max-w-5xl space-y-8 p-6">
      <section className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
          {t('greeting', { name: user.name })}
        </h1>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          {t('memberSince', { date: formatDate(user.joinDate, lng) })}
        </p>
      </section>

      <section aria-labelledby="credits-heading" className="space-y-3">
        <h2
          id="credits-heading"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('credits.title')}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {CREDIT_KEYS.map((key) => (
            <Stat
              key={key}
              label={t(`credits.${key}`)}
              value={formatNumber(user.credits[key], lng)}
              hint={t(`credits.${key}Hint`)}
            />
          ))}
        </dl>
      </section>

      <section aria-labelledby="usage-heading" className="space-y-3">
        <h2
          id="usage-heading"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('usage.title')}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {USAGE_KEYS.map((key) => (
            <Stat key={key} label={t(`usage.${key}`)} value={formatNumber(user[key], lng)} />
          ))}
          <Stat label={t('usage.monthlyUse')} value={formatNumber(monthlyUse, lng)} hint={t('usage.monthlyUseHint')} />
        </dl>
      </section>
    </div>
  );
}
