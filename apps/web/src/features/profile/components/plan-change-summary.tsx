import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Credits, PlanChange } from '@parley/contract';
import { formatNumber } from '@parley/i18n';

const KINDS: (keyof Credits)[] = ['dailyCredit', 'basicCredit', 'advanceCredit', 'extraAdvanceCredit'];

/** What an upgrade changed: the plan before → after, and each kind of credit with what was added. */
export function PlanChangeSummary({ change, children }: { change: PlanChange; children?: ReactNode }) {
  const { t, i18n } = useTranslation('profile');
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section
      aria-labelledby="plan-change-title"
      className="rounded-xl border border-emerald-200 bg-emerald-50/60 p-4 dark:border-emerald-500/30 dark:bg-emerald-500/10"
    >
      <h2 id="plan-change-title" className="text-sm font-semibold text-emerald-900 dark:text-emerald-200">
        {t('change.title')}
      </h2>
      <dl className="mt-3 space-y-2 text-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <dt className="text-zinc-600 dark:text-zinc-400">{t('change.plan')}</dt>
          <dd className="font-medium text-zinc-900 dark:text-zinc-100" data-testid="plan-change-plan">
            {t('change.planValue', {
              before: t(`change.plans.${change.planBefore}`),
              after: t(`change.plans.${change.planAfter}`),
            })}
          </dd>
        </div>
        {KINDS.map((kind) => {
          const before = change.creditsBefore[kind];
          const after = change.creditsAfter[kind];
          const added = after - before;
          return (
            <div key={kind} className="flex flex-wrap items-baseline justify-between gap-x-3">
              <dt className="text-zinc-600 dark:text-zinc-400">{t(`change.kinds.${kind}`)}</dt>
              <dd className="tabular-nums text-zinc-900 dark:text-zinc-100">
                {t('change.creditValue', { before: n(before), after: n(after) })}{' '}
                <span
                  className={
                    added > 0
                      ? 'ml-1 rounded-full bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-500/20 dark:text-emerald-200'
                      : 'ml-1 text-xs text-zinc-500'
                  }
                >
                  {added > 0 ? t('change.added', { amount: n(added) }) : t('change.same')}
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
      {children && <div className="mt-4">{children}</div>}
    </section>
  );
}
