import type { CurrentPlan, PaymentPlans, Subscription } from '@parley/contract';
import { DEFAULT_PLAN_PRICES, PAID_PLAN_IDS, PLANS, yearlySavingPercent } from '@parley/contract/values';

/** GET /api/payment/plans as a server with the default prices answers it (student prices at half). */
export function makePaymentPlans(overrides: Partial<PaymentPlans> = {}): PaymentPlans {
  return {
    paymentsEnabled: true,
    trialDays: 7,
    studentPricing: true,
    plans: PAID_PLAN_IDS.map((id) => {
      const prices = DEFAULT_PLAN_PRICES[id];
      const plan = PLANS[id];
      return {
        id,
        perSeat: Boolean(plan.perSeat),
        ownKeys: Boolean(plan.ownKeys),
        gated: plan.gated,
        allowance: plan.allowance,
        prices: {
          month: { amount: prices.month, currency: 'usd', studentAmount: prices.month / 2 },
          year: { amount: prices.year, currency: 'usd', studentAmount: prices.year / 2 },
        },
        yearlySavingPercent: yearlySavingPercent(prices),
      };
    }),
    ...overrides,
  };
}

export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    plan: 'pro',
    duration: 'month',
    status: 'active',
    quantity: 1,
    source: 'stripe',
    validFrom: '2026-11-01T10:00:00.000Z',
    currentPeriodEnd: '2026-12-01T10:00:00.000Z',
    daysRemaining: 6,
    cancelAtPeriodEnd: false,
    trialEnd: null,
    promoCode: null,
    graceUntil: null,
    student: false,
    ...overrides,
  };
}

/** GET /api/payment/current-plan: by default a free account that has never subscribed. */
export function makeCurrentPlan(overrides: Partial<CurrentPlan> = {}): CurrentPlan {
  return {
    plan: 'free',
    basePlan: 'free',
    paymentsEnabled: true,
    subscription: null,
    trialAvailable: false,
    studentEmail: null,
    actions: ['upgrade'],
    ...overrides,
  };
}

/** A subscriber on `sub`'s plan, with the actions the server offers a running Stripe subscription. */
export function subscribed(sub: Partial<Subscription> = {}, overrides: Partial<CurrentPlan> = {}): CurrentPlan {
  const subscription = makeSubscription(sub);
  return makeCurrentPlan({
    plan: subscription.plan,
    subscription,
    actions: ['upgrade', subscription.cancelAtPeriodEnd ? 'reactivate' : 'cancel', 'remove', 'portal'],
    ...overrides,
  });
}
