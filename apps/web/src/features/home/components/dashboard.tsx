import { useTranslation } from 'react-i18next';
import type { Profile, Usage } from '@parley/contract';
import { PLANS } from '@parley/contract/values';
import { formatDate, formatNumber } from '@parley/i18n';
import { Card } from '@parley/ui';
import { useUsage } from '../api/usage-api';
import { UsageChart } from './usage-chart';

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

/** The free tier's daily uses left, per gated capability. */
function FreeTier({ gates }: { gates: Usage['gates'] }) {
  const { t, i18n } = useTranslation('home');
  const limit = gates[0]?.limit ?? 0;
  return (
    <section aria-labelledby="free-tier-heading" className="space-y-3">
      <h2
        id="free-tier-heading"
        className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
      >
        {t('freeTier.title')}
      </h2>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('freeTier.hint', { limit })}</p>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {gates.map((gate) => (
          <li key={gate.capability}>
            <Card className="flex items-center justify-between gap-3">
              <span className="text-sm text-zinc-700 dark:text-zinc-200">
                {t(`freeTier.capabilities.${gate.capability}`)}
              </span>
              <span className="text-sm font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
                {t('freeTier.left', {
                  left: formatNumber(gate.left, i18n.language),
                  limit: formatNumber(gate.limit, i18n.language),
                })}
              </span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The AI dashboard: greeting, remaining credits, the last 30 days of use, and the free tier's uses left today. */
export function Dashboard({ user }: { user: Profile }) {
  const { t, i18n } = useTranslation('home');
  const lng = i18n.language;
  const usage = useUsage();
  const credits = usage.data?.credits ?? user.credits;
  const totals = usage.data?.totals ?? {
    basic: user.basicUse,
    advance: user.advanceUse,
    extraAdvance: user.extraAdvanceUse,
  };
  const used = { basicUse: totals.basic, advanceUse: totals.advance, extraAdvanceUse: totals.extraAdvance };
  // monthlyUse is defined as the sum of the three counters (spec §3); computed here so it always adds up.
  const monthlyUse = used.basicUse + used.advanceUse + used.extraAdvanceUse;
  const hint = (key: (typeof CREDIT_KEYS)[number]) =>
    key === 'dailyCredit' && usage.data
      ? `${t('credits.dailyCreditHint', { allowance: formatNumber(PLANS[usage.data.plan].allowance.dailyCredit, lng) })} · ${t(
          'credits.renewsAt',
          { when: formatDate(usage.data.dailyRenewsAt, lng, { weekday: 'short', hour: 'numeric', minute: '2-digit' }) },
        )}`
      : t(key === 'dailyCredit' ? 'credits.dailyCreditEveryDay' : `credits.${key}Hint`);

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
            <Stat key={key} label={t(`credits.${key}`)} value={formatNumber(credits[key], lng)} hint={hint(key)} />
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
            <Stat key={key} label={t(`usage.${key}`)} value={formatNumber(used[key], lng)} />
          ))}
          <Stat label={t('usage.monthlyUse')} value={formatNumber(monthlyUse, lng)} hint={t('usage.monthlyUseHint')} />
        </dl>
        {usage.data && (
          <Card>
            <UsageChart days={usage.data.days} />
          </Card>
        )}
      </section>

      {usage.data && usage.data.gates.length > 0 && <FreeTier gates={usage.data.gates} />}
    </div>
  );
}
