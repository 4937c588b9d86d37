import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PlanDuration } from '@parley/contract/values';
import { formatPrice } from '@parley/i18n';
import { Card, SkeletonBar, cn, focusRing } from '@parley/ui';
import { usePaymentPlans } from '../api/plans-api';
import { bestYearlySaving, checkoutSearch, priceOf } from '../pricing';
import { BillingSwitch } from './billing-switch';

/**
 * Onboarding step 3's paid plans, compact: Monthly or Yearly, each plan's price, and a link to its checkout. Nothing
 * when this server does not take payments (the free plan above says it all).
 */
export function OnboardingPlanChoice({ checkoutPath, plansPath }: { checkoutPath: string; plansPath: string }) {
  const { t, i18n } = useTranslation('plans');
  const plans = usePaymentPlans();
  const [duration, setDuration] = useState<PlanDuration>('month');

  if (plans.isPending) {
    return (
      <div role="status" aria-label={t('onboarding.loading')} className="grid gap-2 sm:grid-cols-2">
        {Array.from({ length: 4 }, (_, i) => (
          <SkeletonBar key={i} className="h-16 w-full" />
        ))}
      </div>
    );
  }
  if (!plans.data || !plans.data.paymentsEnabled || plans.data.plans.length === 0) return null;

  return (
    <section aria-labelledby="onboarding-plans" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="onboarding-plans" className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
          {t('onboarding.title')}
        </h2>
        <BillingSwitch value={duration} onChange={setDuration} saving={bestYearlySaving(plans.data.plans)} />
      </div>
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {plans.data.plans.map((offer) => {
          const price = priceOf(offer, duration, false);
          const name = t(`names.${offer.id}`);
          return (
            <li key={offer.id}>
              {price ? (
                <Link
                  to={checkoutPath + checkoutSearch({ plan: offer.id, duration })}
                  aria-label={t('onboarding.choose', {
                    plan: name,
                    price: formatPrice(price.amount, price.currency, i18n.language),
                    period: t(offer.perSeat ? `price.perSeat.${duration}` : `price.per.${duration}`),
                  })}
                  className={cn(
                    'flex h-full items-center justify-between gap-3 rounded-xl border border-zinc-200 bg-white p-4 transition-colors hover:border-blue-300 hover:bg-blue-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-blue-500/50 dark:hover:bg-blue-500/5',
                    focusRing,
                  )}
                >
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium text-zinc-900 dark:text-zinc-50">{name}</span>
                    <span className="line-clamp-2 block text-xs text-zinc-500 dark:text-zinc-400">
                      {t(`taglines.${offer.id}`)}
                    </span>
                  </span>
                  <span className="shrink-0 text-right">
                    <span className="block font-semibold tabular-nums text-zinc-900 dark:text-zinc-50">
                      {formatPrice(price.amount, price.currency, i18n.language)}
                    </span>
                    <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                      {t(offer.perSeat ? `price.perSeat.${duration}` : `price.per.${duration}`)}
                    </span>
                  </span>
                </Link>
              ) : (
                <Card flush className="p-4 text-sm text-zinc-500 dark:text-zinc-400">
                  {name} · {t(`price.notSold.${duration}`)}
                </Card>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {t('onboarding.note')}{' '}
        <Link to={plansPath} className={cn('font-medium text-blue-600 underline dark:text-blue-400', focusRing)}>
          {t('onboarding.compare')}
        </Link>
      </p>
    </section>
  );
}
