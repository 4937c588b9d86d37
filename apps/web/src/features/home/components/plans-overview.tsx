import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BASE_PLAN_IDS, FREE_DAILY_USES, isPaidPlan, PLANS, type PlanId } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { Card, ChevronRightIcon, cn, focusRing } from '@parley/ui';

const TIER_KEYS = ['basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;

/**
 * The plans that come without payment side by side (and the paid one a person is on): what their credits are, how
 * they come back, and how a person gets on them. The paid plans are compared on their own page (`plansPath`).
 */
export function PlansOverview({ current, plansPath }: { current: PlanId | undefined; plansPath: string }) {
  const { t, i18n } = useTranslation('home');
  const lng = i18n.language;
  const shown: PlanId[] = [...BASE_PLAN_IDS, ...(current && isPaidPlan(current) ? [current] : [])];
  return (
    <section id="plans" aria-labelledby="plans-heading" className="scroll-mt-20 space-y-3">
      <h2 id="plans-heading" className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        {t('plans.title')}
      </h2>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('plans.hint')}</p>
      <ul className={cn('grid gap-3 md:grid-cols-2', shown.length === 3 ? 'xl:grid-cols-4' : 'xl:grid-cols-3')}>
        {shown.map((id) => {
          const plan = PLANS[id];
          const isCurrent = id === current;
          return (
            <li key={id}>
              <Card
                className={cn(
                  'flex h-full flex-col gap-3',
                  isCurrent && 'border-blue-400 ring-1 ring-blue-400 dark:border-blue-500 dark:ring-blue-500',
                )}
                aria-current={isCurrent ? 'true' : undefined}
                data-testid={`plan-${id}`}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">{t(`plans.names.${id}`)}</h3>
                  {isCurrent && (
                    <span className="rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700 dark:bg-blue-500/15 dark:text-blue-300">
                      {t('plans.current')}
                    </span>
                  )}
                </div>
                <p className="text-sm text-zinc-500 dark:text-zinc-400">{t(`plans.how.${id}`)}</p>
                <dl className="space-y-1.5 text-sm">
                  <div className="flex justify-between gap-3">
                    <dt className="text-zinc-600 dark:text-zinc-300">{t('credits.dailyCredit')}</dt>
                    <dd className="font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
                      {t('plans.perDay', { count: formatNumber(plan.allowance.dailyCredit, lng) })}
                    </dd>
                  </div>
                  {TIER_KEYS.map((key) => (
                    <div key={key} className="flex justify-between gap-3">
                      <dt className="text-zinc-600 dark:text-zinc-300">{t(`credits.${key}`)}</dt>
                      <dd className="font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
                        {formatNumber(plan.allowance[key], lng)}
                      </dd>
                    </div>
                  ))}
                </dl>
                <ul className="mt-auto space-y-1 border-t border-zinc-100 pt-3 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
                  <li>{plan.monthlyRenewal ? t('plans.monthly') : t('plans.once')}</li>
                  {plan.perSeat && <li>{t('plans.perSeat')}</li>}
                  <li>
                    {plan.gated
                      ? t('plans.freeLimit', { limit: formatNumber(FREE_DAILY_USES, lng) })
                      : t('plans.noLimit')}
                  </li>
                </ul>
              </Card>
            </li>
          );
        })}
        <li>
          <Link
            to={plansPath}
            className={cn(
              'group flex h-full flex-col gap-2 rounded-xl border border-dashed border-blue-300 bg-blue-50/40 p-5 transition-colors hover:border-blue-400 hover:bg-blue-50 dark:border-blue-500/40 dark:bg-blue-500/5 dark:hover:bg-blue-500/10',
              focusRing,
            )}
          >
            <span className="flex items-center gap-1 text-base font-semibold text-zinc-900 dark:text-zinc-50">
              {t('plans.paidTitle')}
              <ChevronRightIcon className="shrink-0 text-zinc-400 transition-transform group-hover:translate-x-0.5" />
            </span>
            <span className="text-sm text-zinc-600 dark:text-zinc-300">{t('plans.paidHint')}</span>
            <span className="mt-auto pt-2 text-sm font-medium text-blue-700 dark:text-blue-300">
              {t('plans.compare')}
            </span>
          </Link>
        </li>
      </ul>
    </section>
  );
}
