import { describe, expect, it } from 'vitest';
import {
  bestYearlySaving,
  checkoutSearch,
  chooserMode,
  isCurrentChoice,
  isUpgrade,
  priceOf,
  withPromo,
} from './pricing';
import { makeCurrentPlan, makePaymentPlans, makeSubscription, subscribed } from './test-fixtures';

const offers = makePaymentPlans().plans;
const pro = offers.find((o) => o.id === 'pro')!;

describe('prices', () => {
  it('takes the period’s price, the student one only when asked for and offered', () => {
    expect(priceOf(pro, 'month', false)).toEqual({ amount: 1500, currency: 'usd' });
    expect(priceOf(pro, 'year', true)).toEqual({ amount: 4950, currency: 'usd' });
    const noStudent = { ...pro, prices: { month: { amount: 1500, currency: 'usd', studentAmount: null }, year: null } };
    expect(priceOf(noStudent, 'month', true)).toEqual({ amount: 1500, currency: 'usd' });
    expect(priceOf(noStudent, 'year', false)).toBeNull();
  });

  it('says the best yearly saving across the plans, from their prices', () => {
    // Own keys: 30 a year against 5 × 12 = 60 saves 50 %; Pro saves 45 %.
    expect(bestYearlySaving(offers)).toBe(50);
    expect(bestYearlySaving([pro])).toBe(45);
    expect(bestYearlySaving([{ ...pro, prices: { month: pro.prices.month, year: null } }])).toBe(0);
  });

  it('takes a promotion off the first payment: a share, or an amount in the same currency', () => {
    const promo = {
      code: 'X',
      percentOff: 20,
      amountOff: null,
      currency: null,
      duration: 'once',
      durationInMonths: null,
    };
    expect(withPromo({ amount: 9900, currency: 'usd' }, promo)).toEqual({ amount: 7920, currency: 'usd' });
    const off = { ...promo, percentOff: null, amountOff: 500, currency: 'USD' };
    expect(withPromo({ amount: 1500, currency: 'usd' }, off)).toEqual({ amount: 1000, currency: 'usd' });
    expect(withPromo({ amount: 1500, currency: 'eur' }, off)).toBeNull();
    expect(withPromo({ amount: 300, currency: 'usd' }, off)).toEqual({ amount: 0, currency: 'usd' });
  });
});

describe('what the chooser offers', () => {
  it('a checkout without a running subscription, a change with one, nothing while it cannot change', () => {
    expect(chooserMode(makeCurrentPlan())).toBe('choose');
    expect(chooserMode(subscribed())).toBe('change');
    expect(chooserMode(subscribed({ status: 'canceled' }, { actions: ['upgrade', 'renew'] }))).toBe('choose');
    expect(chooserMode(subscribed({}, { actions: ['cancel'] }))).toBe('locked');
  });

  it('marks the current plan by plan, period and (for Team) seats; a grant without subscription by plan', () => {
    const current = subscribed({ plan: 'team', quantity: 3, duration: 'year' });
    expect(isCurrentChoice(current, { plan: 'team', duration: 'year', quantity: 3 })).toBe(true);
    expect(isCurrentChoice(current, { plan: 'team', duration: 'year', quantity: 4 })).toBe(false);
    expect(isCurrentChoice(current, { plan: 'team', duration: 'month', quantity: 3 })).toBe(false);
    expect(isCurrentChoice(current, { plan: 'pro', duration: 'year', quantity: 1 })).toBe(false);
    const granted = makeCurrentPlan({
      plan: 'plus',
      subscription: makeSubscription({ plan: 'plus', source: 'admin' }),
    });
    expect(isCurrentChoice(granted, { plan: 'plus', duration: 'year', quantity: 1 })).toBe(false);
    expect(isCurrentChoice(makeCurrentPlan({ plan: 'plus' }), { plan: 'plus', duration: 'year', quantity: 1 })).toBe(
      true,
    );
  });

  it('calls a change an upgrade when it costs more a month', () => {
    const current = subscribed({ plan: 'pro', duration: 'month' });
    expect(isUpgrade(current, offers, { plan: 'plus', duration: 'month', quantity: 1 })).toBe(true);
    expect(isUpgrade(current, offers, { plan: 'byok', duration: 'month', quantity: 1 })).toBe(false);
    // Pro yearly is 8.25 a month against 15.
    expect(isUpgrade(current, offers, { plan: 'pro', duration: 'year', quantity: 1 })).toBe(false);
    expect(isUpgrade(current, offers, { plan: 'team', duration: 'month', quantity: 2 })).toBe(true);
  });

  it('writes the checkout address, the trial one with the plan and period only', () => {
    expect(checkoutSearch({ plan: 'pro', duration: 'year', promoCode: 'WELCOME20', student: true })).toBe(
      '?plan=pro&planDuration=year&promoCode=WELCOME20&student=1',
    );
    expect(checkoutSearch({ plan: 'team', duration: 'month', quantity: 4 })).toBe(
      '?plan=team&planDuration=month&quantity=4',
    );
    expect(checkoutSearch({ plan: 'plus', duration: 'month', quantity: 4, promoCode: 'X', trial: true })).toBe(
      '?plan=plus&planDuration=month&trial=1',
    );
  });
});
