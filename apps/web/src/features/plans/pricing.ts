import type { CurrentPlan, PaidPlanId, PlanDuration, PlanOffer, Promo, Subscription } from '@parley/contract';
import { PAID_PLAN_IDS, yearlySavingPercent } from '@parley/contract/values';

export type Price = { amount: number; currency: string };

/** What a plan costs for a period: the student price when asked for and offered. null: not on sale then. */
export function priceOf(offer: PlanOffer, duration: PlanDuration, student: boolean): Price | null {
  const price = offer.prices[duration];
  if (!price) return null;
  const amount = student && price.studentAmount !== null ? price.studentAmount : price.amount;
  return { amount, currency: price.currency };
}

/** The largest yearly saving across the plans sold both monthly and yearly, computed from their prices. */
export function bestYearlySaving(offers: PlanOffer[]): number {
  let best = 0;
  for (const offer of offers) {
    const { month, year } = offer.prices;
    if (month && year) best = Math.max(best, yearlySavingPercent({ month: month.amount, year: year.amount }));
  }
  return best;
}

/** The first payment with a promotion code, when the code says what it takes off (in the same currency). */
export function withPromo(price: Price, promo: Promo | null | undefined): Price | null {
  if (!promo) return null;
  if (promo.percentOff !== null) return { ...price, amount: Math.round(price.amount * (1 - promo.percentOff / 100)) };
  if (promo.amountOff !== null && promo.currency?.toLowerCase() === price.currency.toLowerCase())
    return { ...price, amount: Math.max(0, price.amount - promo.amountOff) };
  return null;
}

/** Statuses in which the subscription holds the plan (and is changed rather than bought again), as the server says. */
const LIVE: readonly Subscription['status'][] = ['trialing', 'active', 'past_due', 'unpaid'];
export const isLive = (subscription: Subscription | null): subscription is Subscription =>
  Boolean(subscription && LIVE.includes(subscription.status));

/**
 * How the plan chooser offers plans to this person: `choose` (a new checkout), `change` (the running subscription is
 * updated, with proration) or `locked` (a subscription exists but cannot be changed now: see the plan settings).
 */
export type ChooserMode = 'choose' | 'change' | 'locked';
export function chooserMode(current: CurrentPlan): ChooserMode {
  if (current.actions.includes('upgrade') && isLive(current.subscription)) return 'change';
  if (isLive(current.subscription)) return 'locked';
  return 'choose';
}

/** A year's price spread over twelve months, to compare plans. */
const perMonth = (price: Price, duration: PlanDuration) => (duration === 'year' ? price.amount / 12 : price.amount);

/** Whether a choice is the plan the person has now (same plan, period and seats). */
export function isCurrentChoice(
  current: CurrentPlan,
  choice: { plan: PaidPlanId; duration: PlanDuration; quantity: number },
): boolean {
  if (current.plan !== choice.plan) return false;
  const sub = current.subscription;
  // A plan given without a subscription (a site admin's grant) is current whatever the period.
  if (!isLive(sub) || sub.plan !== choice.plan) return true;
  return sub.duration === choice.duration && (sub.quantity === choice.quantity || choice.plan !== 'team');
}

/** Whether changing to `choice` costs more a month than the running subscription: "Upgrade", else "Change". */
export function isUpgrade(
  current: CurrentPlan,
  offers: PlanOffer[],
  choice: { plan: PaidPlanId; duration: PlanDuration; quantity: number },
): boolean {
  const sub = current.subscription;
  if (!sub) return true;
  const now = offers.find((o) => o.id === sub.plan);
  const next = offers.find((o) => o.id === choice.plan);
  const nowPrice = now && priceOf(now, sub.duration, sub.student);
  const nextPrice = next && priceOf(next, choice.duration, sub.student);
  if (!nowPrice || !nextPrice) return PAID_PLAN_IDS.indexOf(choice.plan) > PAID_PLAN_IDS.indexOf(sub.plan);
  return perMonth(nextPrice, choice.duration) * choice.quantity > perMonth(nowPrice, sub.duration) * sub.quantity;
}

/** The query of /payment-call for a choice. */
export function checkoutSearch(choice: {
  plan: PaidPlanId;
  duration: PlanDuration;
  quantity?: number;
  promoCode?: string | null;
  student?: boolean;
  trial?: boolean;
}): string {
  const params = new URLSearchParams({ plan: choice.plan, planDuration: choice.duration });
  if (choice.trial) {
    params.set('trial', '1');
    return `?${params}`;
  }
  if (choice.quantity && choice.quantity > 1) params.set('quantity', String(choice.quantity));
  if (choice.promoCode) params.set('promoCode', choice.promoCode);
  if (choice.student) params.set('student', '1');
  return `?${params}`;
}
