import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUS_ALLOWANCE, PRO_ALLOWANCE, TEAM_SEAT_ALLOWANCE, FREE_ALLOWANCE } from '@parley/contract';
import { billingCustomers, paymentEvents, subscriptions, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { seedParleyCatalogue, startFakeStripe, type FakeStripe, type StripeEvent } from '../../test/fake-stripe.js';
import { ledgerMismatches, setCredits, walletOf } from '../../test/wallets.js';
import { defaultCatalogue } from '../../lib/plan-catalogue.js';
import { createStripeProvider, type PaymentsProvider } from '../../providers/payments/stripe.js';
import type { Caller } from './billing.service.js';
import { createPaymentsService } from './payments.service.js';

// The clock billing reads (grace periods end, admin grants expire); Stripe's own objects use the wall clock.
let now = new Date();
const clock = () => now;

let stripe: FakeStripe;
let t: TestApp;
let webhookUrl: string;
beforeAll(async () => {
  stripe = await startFakeStripe();
  seedParleyCatalogue(stripe);
  t = await createTestApp(
    {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      STRIPE_TRIAL_DAYS: '14',
      STUDENT_EMAIL_DOMAINS: '.edu,uni.example',
      RATE_LIMIT_PER_IP: '1000',
    },
    { clock },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  webhookUrl = `http://127.0.0.1:${address.port}/api/payment/webhook`;
  stripe.setWebhookUrl(webhookUrl);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const db = () => t.database.db;
const current = async (token: string) => (await t.json('GET', '/api/payment/current-plan', { token })).body.data;
const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;
/** Opens a checkout and pays it on the test server (which delivers Stripe's events to the webhook). */
async function buy(token: string, query: string) {
  const res = await t.json('GET', `/api/payment/subscribe?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = sessionIdOf(res.body.data.url);
  await stripe.completeCheckout(id);
  return id;
}
const subscriptionOf = async (email: string) => {
  const [row] = await db()
    .select({ sub: subscriptions })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(users.email, email));
  return row?.sub;
};
/** Stripe's times are whole seconds: a wait before something that must start a new second there. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));
const monthlyRenewsAtOf = async (email: string) => {
  const result = (await db().execute(sql`
    SELECT w.monthly_renews_at AS at FROM wallets w JOIN users u ON u.id = w.user_id
     WHERE u.email = ${email}`)) as unknown as { rows: { at: Date | string | null }[] };
  const at = result.rows[0]?.at;
  return at == null ? null : new Date(at);
};
const post = (event: StripeEvent, opts: { secret?: string; timestamp?: number; tamper?: boolean } = {}) => {
  const payload = JSON.stringify(event, null, 2);
  const header = stripe.sign(payload, opts);
  return fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: opts.tamper ? payload.replace('"livemode": false', '"livemode": true') : payload,
  });
};

describe('plans and checkout', () => {
  it('lists the plans with Stripe’s prices, the trial and student pricing', async () => {
    const res = await t.json('GET', '/api/payment/plans');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ paymentsEnabled: true, trialDays: 14, studentPricing: true });
    const pro = res.body.data.plans.find((p: { id: string }) => p.id === 'pro');
    expect(pro.prices.month).toEqual({ amount: 1500, currency: 'usd', studentAmount: 750 });
    expect(pro.prices.year.amount).toBe(9900);
    expect(pro.yearlySavingPercent).toBe(45);
    expect(res.body.data.plans.find((p: { id: string }) => p.id === 'team').perSeat).toBe(true);
  });

  it('Pro yearly with a promo code: paid on the checkout page, the plan and its allowance arrive by webhook', async () => {
    const u = await t.signUp();
    expect((await current(u.token)).actions).toEqual(['upgrade']);
    const sessionId = await buy(u.token, 'plan=pro&planDuration=year&promoCode=WELCOME20');
    const plan = await current(u.token);
    expect(plan).toMatchObject({ plan: 'pro', basePlan: 'free' });
    expect(plan.subscription).toMatchObject({
      plan: 'pro',
      duration: 'year',
      status: 'active',
      quantity: 1,
      source: 'stripe',
      promoCode: 'WELCOME20',
      cancelAtPeriodEnd: false,
    });
    expect(plan.subscription.daysRemaining).toBeGreaterThanOrEqual(364);
    expect(plan.actions).toEqual(['upgrade', 'cancel', 'remove', 'portal']);
    expect(await walletOf(db(), u.email)).toMatchObject(PRO_ALLOWANCE);
    // The discount is Stripe's: the first invoice was 20% off.
    const invoice = [...stripe.state.invoices.values()].find(
      (i) => i.customer === stripe.state.checkoutSessions.get(sessionId)!.customer,
    );
    expect(invoice!.amount_paid).toBe(7920);
    // The success page's confirmation changes nothing more.
    const again = await t.json('POST', '/api/payment/confirm', { token: u.token, body: { sessionId } });
    expect(again.body.data.plan).toBe('pro');
    expect(await walletOf(db(), u.email)).toMatchObject(PRO_ALLOWANCE);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('the price comes from the plan: a client-sent price, amount or credits are ignored', async () => {
    const u = await t.signUp();
    const res = await t.json(
      'GET',
      '/api/payment/subscribe?plan=plus&planDuration=month&price=price_cheap&amount=1&unit_amount=1&credits=999999',
      { token: u.token },
    );
    expect(res.status).toBe(200);
    const session = stripe.state.checkoutSessions.get(sessionIdOf(res.body.data.url))!;
    expect(session.amount_subtotal).toBe(2500);
    await stripe.completeCheckout(session.id);
    const sub = stripe.state.subscriptions.get(stripe.state.checkoutSessions.get(session.id)!.subscription)!;
    expect(sub.items.data[0].price).toMatchObject({ lookup_key: 'parley_plus_month', unit_amount: 2500 });
    expect(await walletOf(db(), u.email)).toMatchObject(PLUS_ALLOWANCE);
  });

  it('an invalid, expired or used-up promo code gets a clear message and no checkout', async () => {
    const u = await t.signUp();
    stripe.addPromotionCode({ code: 'USEDUP', percentOff: 50, maxRedemptions: 1, timesRedeemed: 1 });
    const before = stripe.state.checkoutSessions.size;
    for (const code of ['NOPE', 'EXPIRED10', 'USEDUP']) {
      const res = await t.json('GET', `/api/payment/subscribe?plan=pro&planDuration=month&promoCode=${code}`, {
        token: u.token,
        lang: 'es',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'PROMO_CODE_INVALID' });
      expect(res.body.message).toMatch(/código promocional/);
    }
    expect(stripe.state.checkoutSessions.size).toBe(before);
    const promo = await t.json('GET', '/api/payment/promo-code?code=WELCOME20', { token: u.token });
    expect(promo.body.data).toMatchObject({ code: 'WELCOME20', percentOff: 20, duration: 'forever' });
  });

  it('calls that reach Stripe are paced per person (20 a minute)', async () => {
    const u = await t.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await t.json('GET', '/api/payment/promo-code?code=WELCOME20', { token: u.token })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Someone else is not slowed down.
    const other = await t.signUp();
    expect((await t.json('GET', '/api/payment/promo-code?code=WELCOME20', { token: other.token })).status).toBe(200);
  });

  it('a forged or foreign success URL grants nothing', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const res = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: a.token });
    const aSession = sessionIdOf(res.body.data.url);
    // Not paid yet: confirming changes nothing.
    const early = await t.json('POST', '/api/payment/confirm', { token: a.token, body: { sessionId: aSession } });
    expect(early.body.data.plan).toBe('free');
    // Someone else's session, or one that does not exist: not found, nothing granted.
    for (const sessionId of [aSession, 'cs_test_forged123']) {
      const forged = await t.json('POST', '/api/payment/confirm', { token: b.token, body: { sessionId } });
      expect(forged.status).toBe(404);
    }
    expect((await current(b.token)).plan).toBe('free');
    expect(await walletOf(db(), b.email)).toMatchObject(FREE_ALLOWANCE);
  });

  it('two requests racing for the one free trial: one checkout, one clear refusal', async () => {
    const u = await t.signUp();
    const results = await Promise.all(
      [1, 2].map(() => t.json('GET', '/api/payment/free-trial?plan=pro&planDuration=month', { token: u.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe('TRIAL_ALREADY_USED');
    const ok = results.find((r) => r.status === 200)!;
    await stripe.completeCheckout(sessionIdOf(ok.body.data.url));
    const plan = await current(u.token);
    expect(plan.subscription).toMatchObject({ plan: 'pro', status: 'trialing' });
    expect(plan.subscription.trialEnd).not.toBeNull();
    expect(plan.trialAvailable).toBe(false);
    expect(
      (await t.json('GET', '/api/payment/free-trial?plan=plus&planDuration=month', { token: u.token })).status,
    ).toBe(400);
  });
});

describe('changing a subscription', () => {
  it('cancel at period end, reactivate, upgrade to Team with 3 seats, remove', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    const cancelled = await t.json('POST', '/api/payment/cancel-subscription', { token: u.token });
    expect(cancelled.body.data.subscription.cancelAtPeriodEnd).toBe(true);
    expect(cancelled.body.data.actions).toContain('reactivate');
    expect(cancelled.body.data.plan).toBe('pro');
    const twice = await t.json('POST', '/api/payment/cancel-subscription', { token: u.token });
    expect(twice.status).toBe(400);
    const reactivated = await t.json('POST', '/api/payment/reactivate-subscription', { token: u.token });
    expect(reactivated.body.data.subscription.cancelAtPeriodEnd).toBe(false);

    const seatsOnPro = await t.json('GET', '/api/payment/update-subscription?plan=pro&planDuration=month&quantity=3', {
      token: u.token,
    });
    expect(seatsOnPro.body.code).toBe('SEATS_ONLY_FOR_TEAM');
    const team = await t.json('GET', '/api/payment/update-subscription?plan=team&planDuration=month&quantity=3', {
      token: u.token,
    });
    expect(team.status).toBe(200);
    expect(team.body.data).toMatchObject({ plan: 'team', subscription: { plan: 'team', quantity: 3 } });
    expect(await walletOf(db(), u.email)).toMatchObject({
      basicCredit: TEAM_SEAT_ALLOWANCE.basicCredit * 3,
      advanceCredit: TEAM_SEAT_ALLOWANCE.advanceCredit * 3,
    });
    // The dashboard says what the daily credits come back to: per seat, times the seats.
    const usage = await t.json('GET', '/api/user/usage', { token: u.token });
    expect(usage.body.data).toMatchObject({ plan: 'team', dailyAllowance: TEAM_SEAT_ALLOWANCE.dailyCredit * 3 });

    const removed = await t.json('POST', '/api/payment/remove-subscription', { token: u.token });
    expect(removed.body.data).toMatchObject({ plan: 'free', subscription: { status: 'canceled' } });
    expect(removed.body.data.actions).toContain('renew');
    // Back on the free plan: what is left is cut to the free allowance, each cut a ledger row.
    expect(await walletOf(db(), u.email)).toMatchObject(FREE_ALLOWANCE);
    expect(await ledgerMismatches(db())).toEqual([]);
    const renew = await t.json('GET', '/api/payment/renew-subscription', { token: u.token });
    expect(renew.status).toBe(200);
    // The same plan and seats: Team, 3 × 20 USD.
    expect(stripe.state.checkoutSessions.get(sessionIdOf(renew.body.data.url))!.amount_subtotal).toBe(6000);
  });

  it('a paid invoice renews the allowance; a failed payment keeps the plan for the grace period, then ends it', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    const sub = await subscriptionOf(u.email);
    await setCredits(db(), u.email, { basicCredit: 10 });
    await stripe.renew(sub!.stripeSubscriptionId!);
    expect((await walletOf(db(), u.email)).basicCredit).toBe(PRO_ALLOWANCE.basicCredit);

    await stripe.renew(sub!.stripeSubscriptionId!, { fail: true });
    const failing = await current(u.token);
    expect(failing).toMatchObject({ plan: 'pro', subscription: { status: 'past_due' } });
    expect(failing.subscription.graceUntil).not.toBeNull();
    now = new Date(Date.parse(failing.subscription.graceUntil) + 1000);
    try {
      expect(await t.app.services.payments.endDue()).toBeGreaterThanOrEqual(1);
      expect((await current(u.token)).plan).toBe('free');
    } finally {
      now = new Date();
    }
  });

  it('without a live subscription there is nothing to change', async () => {
    const u = await t.signUp();
    for (const [method, url] of [
      ['POST', '/api/payment/cancel-subscription'],
      ['POST', '/api/payment/reactivate-subscription'],
      ['POST', '/api/payment/remove-subscription'],
      ['GET', '/api/payment/update-subscription?plan=plus&planDuration=month'],
    ] as const) {
      const res = await t.json(method, url, { token: u.token });
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('NO_SUBSCRIPTION');
    }
    expect((await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month')).status).toBe(401);
  });
});

describe('nothing unpaid, nothing twice', () => {
  it('each upgrade is charged before its credits come; a downgrade refunds nothing and takes nothing', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=team&planDuration=month&quantity=1');
    const customer = (await subscriptionOf(u.email))!;
    const invoices = () =>
      [...stripe.state.invoices.values()].filter(
        (i) => i.parent.subscription_details.subscription === customer.stripeSubscriptionId,
      );
    const change = (quantity: number) =>
      t.json('GET', `/api/payment/update-subscription?plan=team&planDuration=month&quantity=${quantity}`, {
        token: u.token,
      });
    await setCredits(db(), u.email, { basicCredit: 0 });
    expect((await change(2)).status).toBe(200);
    expect(invoices().map((i) => i.billing_reason)).toEqual(['subscription_create', 'subscription_update']);
    const afterUp = (await walletOf(db(), u.email)).basicCredit;
    expect(afterUp).toBeGreaterThan(TEAM_SEAT_ALLOWANCE.basicCredit * 0.95);
    expect(afterUp).toBeLessThanOrEqual(TEAM_SEAT_ALLOWANCE.basicCredit);
    expect((await change(1)).status).toBe(200);
    expect(invoices()).toHaveLength(2); // no refund, no invoice
    expect((await walletOf(db(), u.email)).basicCredit).toBe(afterUp);
    expect((await change(2)).status).toBe(200);
    expect(invoices()).toHaveLength(3); // the way up is paid again
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('switching between yearly and monthly billing refills nothing; the next cycle’s invoice does', async () => {
    const u = await t.signUp();
    const sessionId = await buy(u.token, 'plan=pro&planDuration=year');
    const sub = (await subscriptionOf(u.email))!;
    const invoices = () =>
      [...stripe.state.invoices.values()].filter(
        (i) => i.parent.subscription_details.subscription === sub.stripeSubscriptionId,
      );
    const empty = { dailyCredit: 0, basicCredit: 0, advanceCredit: 0, extraAdvanceCredit: 0 };
    for (const duration of ['month', 'year', 'month'] as const) {
      await setCredits(db(), u.email, empty);
      // Stripe restarts the billing cycle at the switch: a later second makes it a period start never seen before.
      await nextSecond();
      const res = await t.json('GET', `/api/payment/update-subscription?plan=pro&planDuration=${duration}`, {
        token: u.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ plan: 'pro', subscription: { plan: 'pro', duration } });
      expect(await walletOf(db(), u.email), `switched to ${duration}`).toMatchObject(empty);
      // The top-ups follow the new cycle: a month into a year; none within a month (its next invoice refills).
      const { current_period_start: start } = stripe.state.subscriptions.get(sub.stripeSubscriptionId!)!.items.data[0];
      const expected = new Date(start * 1000);
      expected.setUTCMonth(expected.getUTCMonth() + 1);
      expect(await monthlyRenewsAtOf(u.email)).toEqual(duration === 'year' ? expected : null);
    }
    expect(invoices().map((i) => i.billing_reason)).toEqual(['subscription_create', 'subscription_update']);
    // Another event about it, and the success page asked again, change nothing either.
    const object = stripe.state.subscriptions.get(sub.stripeSubscriptionId!)!;
    expect((await post(stripe.event('customer.subscription.updated', object))).status).toBe(200);
    await t.json('POST', '/api/payment/confirm', { token: u.token, body: { sessionId } });
    expect(await walletOf(db(), u.email)).toMatchObject(empty);

    // Another plan with the switch keeps its prorated path: only the difference, for a period that just began.
    await nextSecond();
    const plus = await t.json('GET', '/api/payment/update-subscription?plan=plus&planDuration=year', {
      token: u.token,
    });
    expect(plus.body.data).toMatchObject({ plan: 'plus', subscription: { plan: 'plus', duration: 'year' } });
    const w = await walletOf(db(), u.email);
    for (const k of Object.keys(empty) as (keyof typeof empty)[]) {
      expect(w[k], k).toBe(Math.max(0, PLUS_ALLOWANCE[k] - PRO_ALLOWANCE[k]));
    }
    // The next period's paid invoice brings the full allowance.
    await stripe.renew(sub.stripeSubscriptionId!);
    expect(await walletOf(db(), u.email)).toMatchObject(PLUS_ALLOWANCE);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('a trial cannot be changed before its first payment', async () => {
    const u = await t.signUp();
    const trial = await t.json('GET', '/api/payment/free-trial?plan=pro&planDuration=month', { token: u.token });
    await stripe.completeCheckout(sessionIdOf(trial.body.data.url));
    const res = await t.json('GET', '/api/payment/update-subscription?plan=team&planDuration=month&quantity=50', {
      token: u.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('SUBSCRIPTION_ACTION_NOT_ALLOWED');
    expect((await walletOf(db(), u.email)).basicCredit).toBe(PRO_ALLOWANCE.basicCredit);
  });

  it('a renewal that is not paid refills nothing', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=plus&planDuration=month');
    await setCredits(db(), u.email, { basicCredit: 0, advanceCredit: 0 });
    await stripe.renew((await subscriptionOf(u.email))!.stripeSubscriptionId!, { fail: true });
    expect((await current(u.token)).plan).toBe('plus');
    expect(await walletOf(db(), u.email)).toMatchObject({ basicCredit: 0, advanceCredit: 0 });
  });

  it('a second checkout expires the first, and nothing is sold over a subscription Stripe already has', async () => {
    const u = await t.signUp();
    const first = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token });
    const second = await t.json('GET', '/api/payment/subscribe?plan=plus&planDuration=month', { token: u.token });
    expect(stripe.state.checkoutSessions.get(sessionIdOf(first.body.data.url))!.status).toBe('expired');
    await expect(stripe.completeCheckout(sessionIdOf(first.body.data.url))).rejects.toThrow(/expired/);
    // Paid while its news is held: the next checkout finds it at Stripe, applies it, and sells nothing more.
    stripe.setWebhookUrl(null);
    await stripe.completeCheckout(sessionIdOf(second.body.data.url));
    stripe.setWebhookUrl(webhookUrl);
    const third = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=year', { token: u.token });
    expect(third.body.code).toBe('ALREADY_SUBSCRIBED');
    expect((await current(u.token)).plan).toBe('plus');
    await stripe.redeliver();
    expect(await walletOf(db(), u.email)).toMatchObject(PLUS_ALLOWANCE);
  });

  it('six checkouts opened at once: only one stays payable, the one recorded', async () => {
    const u = await t.signUp();
    const opened = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token }),
      ),
    );
    expect(opened.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const open = [...stripe.state.checkoutSessions.values()].filter(
      (s) => s.client_reference_id === u.user.id && s.status === 'open',
    );
    expect(open.map((s) => s.id)).toHaveLength(1);
    const [customer] = await db().select().from(billingCustomers).where(eq(billingCustomers.userId, u.user.id));
    expect(customer!.openCheckoutId).toBe(open[0]!.id);
  });

  it('checkouts recorded at the same instant: each replaces one, and only the last stays payable', async () => {
    const u = await t.signUp();
    const n = 6;
    // Each checkout, once created at Stripe, waits for the others: all six are recorded at once.
    const real = createStripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiUrl: stripe.url,
    });
    let created = 0;
    let allCreated!: () => void;
    const together = new Promise<void>((resolve) => (allCreated = resolve));
    const provider: PaymentsProvider = {
      ...real,
      async createCheckout(input) {
        const session = await real.createCheckout(input);
        if (++created === n) allCreated();
        await together;
        return session;
      },
    };
    const payments = createPaymentsService({
      db: db(),
      provider,
      catalogue: defaultCatalogue(),
      trialDays: 14,
      studentDomains: [],
      graceDays: 7,
      publicUrl: 'http://localhost',
      mailer: t.mail,
      log: t.app.log,
      clock,
    });
    const caller = { user: u.user, wallet: { id: (await walletOf(db(), u.email)).id } } as unknown as Caller;
    const urls = await Promise.all(
      Array.from({ length: n }, () => payments.subscribe(caller, { plan: 'pro', planDuration: 'month', quantity: 1 })),
    );
    const sessions = urls.map(({ url }) => stripe.state.checkoutSessions.get(sessionIdOf(url!))!);
    expect(sessions.filter((s) => s.status === 'open')).toHaveLength(1);
    expect(sessions.filter((s) => s.status === 'expired')).toHaveLength(n - 1);
  });

  it('a second subscription paid anyway: the wallet follows the newer, the older stops at its period end', async () => {
    const u = await t.signUp();
    const first = await t.json('GET', '/api/payment/subscribe?plan=plus&planDuration=month', { token: u.token });
    // As if the two checkouts had crossed: the first is no longer recorded, so the second does not expire it.
    await db().update(billingCustomers).set({ openCheckoutId: null }).where(eq(billingCustomers.userId, u.user.id));
    const second = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token });
    await stripe.completeCheckout(sessionIdOf(first.body.data.url));
    await nextSecond();
    await stripe.completeCheckout(sessionIdOf(second.body.data.url));
    const customerId = stripe.state.checkoutSessions.get(sessionIdOf(first.body.data.url))!.customer;
    const subs = [...stripe.state.subscriptions.values()].filter((s) => s.customer === customerId);
    expect(subs.map((s) => [s.items.data[0].price.lookup_key, s.status, s.cancel_at_period_end])).toEqual([
      ['parley_plus_month', 'active', true],
      ['parley_pro_month', 'active', false],
    ]);
    const plan = await current(u.token);
    expect(plan).toMatchObject({ plan: 'pro', subscription: { plan: 'pro', cancelAtPeriodEnd: false } });
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('an abandoned trial checkout gives the trial back', async () => {
    const u = await t.signUp();
    const trial = await t.json('GET', '/api/payment/free-trial?plan=pro&planDuration=month', { token: u.token });
    expect((await current(u.token)).trialAvailable).toBe(false);
    // Another checkout expires the trial's; Stripe's checkout.session.expired releases it.
    await t.json('GET', '/api/payment/subscribe?plan=plus&planDuration=month', { token: u.token });
    expect(stripe.state.checkoutSessions.get(sessionIdOf(trial.body.data.url))!.status).toBe('expired');
    expect((await current(u.token)).trialAvailable).toBe(true);
  });

  it('a wallet left on a paid plan by an ended subscription returns to its own plan', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    await stripe.cancelNow((await subscriptionOf(u.email))!.stripeSubscriptionId!);
    // As if a change and the end crossed: the wallet says Team while the subscription ended as Pro.
    await db().execute(sql`UPDATE wallets SET plan = 'team', seats = 3 FROM users
                            WHERE users.id = wallets.user_id AND users.email = ${u.email}`);
    expect(await t.app.services.payments.endDue()).toBeGreaterThanOrEqual(1);
    expect((await current(u.token)).plan).toBe('free');
  });

  it('an admin grant can be given again after it was removed; never over a paid subscription', async () => {
    const u = await t.signUp();
    const payments = t.app.services.payments;
    await payments.assignPlan(u.user.id, { plan: 'plus', duration: 'month', seats: 1, until: null });
    await payments.removeAssignedPlan(u.user.id);
    await payments.assignPlan(u.user.id, { plan: 'pro', duration: 'month', seats: 1, until: null });
    expect((await current(u.token)).plan).toBe('pro');
    const paid = await t.signUp();
    await buy(paid.token, 'plan=plus&planDuration=month');
    await expect(
      payments.assignPlan(paid.user.id, { plan: 'pro', duration: 'month', seats: 1, until: null }),
    ).rejects.toMatchObject({ code: 'ALREADY_SUBSCRIBED' });
  });
});

describe('webhooks', () => {
  it('unsigned, wrongly signed, modified and stale events: 400 and no effect', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    const sub = await subscriptionOf(u.email);
    const object = stripe.state.subscriptions.get(sub!.stripeSubscriptionId!);
    const event = stripe.event('customer.subscription.deleted', { ...object, status: 'canceled' });
    const unsigned = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect((await post(event, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await post(event, { tamper: true })).status).toBe(400);
    expect((await post(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    const [applied] = await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
    expect(applied).toBeUndefined();
    expect((await current(u.token)).plan).toBe('pro');
  });

  it('the same event delivered 5 times at once is applied once', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=plus&planDuration=month');
    const sub = await subscriptionOf(u.email);
    await setCredits(db(), u.email, { basicCredit: 0 });
    // A new period at Stripe, its event held, then delivered five times at once.
    stripe.setWebhookUrl(null);
    await stripe.renew(sub!.stripeSubscriptionId!);
    stripe.setWebhookUrl(webhookUrl);
    const paid = stripe.events.filter((e) => e.type === 'invoice.paid').at(-1)!;
    const statuses = await Promise.all([1, 2, 3, 4, 5].map(() => post(paid).then((r) => r.status)));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const w = await walletOf(db(), u.email);
    expect(w.basicCredit).toBe(PLUS_ALLOWANCE.basicCredit);
    const grants = (await db().execute(sql`
      SELECT count(*)::int AS n FROM wallet_ledger
       WHERE wallet_id = ${w.id}::uuid AND kind = 'grant' AND balance = 'basic' AND feature = 'plus'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(grants.rows[0]!.n).toBe(2); // the first period's grant and this renewal's, once
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('deleted, then a late "updated": the subscription stays ended', async () => {
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    const sub = await subscriptionOf(u.email);
    const id = sub!.stripeSubscriptionId!;
    const before = structuredClone(stripe.state.subscriptions.get(id)!);
    await stripe.cancelNow(id);
    expect((await current(u.token)).plan).toBe('free');
    const late = stripe.event('customer.subscription.updated', before, { created: Math.floor(Date.now() / 1000) - 60 });
    expect((await post(late)).status).toBe(200);
    const after = await current(u.token);
    expect(after.plan).toBe('free');
    expect(after.subscription.status).toBe('canceled');
  });

  it('a database failure answers 5xx; the retry applies the event once', async () => {
    const u = await t.signUp();
    stripe.setWebhookUrl(null);
    const res = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token });
    await stripe.completeCheckout(sessionIdOf(res.body.data.url));
    stripe.setWebhookUrl(webhookUrl);
    await db().execute(sql`
      CREATE OR REPLACE FUNCTION parley_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'disk full'; END $$`);
    await db().execute(
      sql`CREATE TRIGGER parley_test_fail BEFORE INSERT ON payment_events FOR EACH ROW EXECUTE FUNCTION parley_test_fail()`,
    );
    const held = stripe.events.filter(
      (e) => e.data.object.customer === stripe.state.checkoutSessions.get(sessionIdOf(res.body.data.url))!.customer,
    );
    try {
      for (const event of held) expect((await stripe.deliver(event)) >= 500).toBe(true);
      expect((await current(u.token)).plan).toBe('free');
    } finally {
      await db().execute(sql`DROP TRIGGER parley_test_fail ON payment_events`);
    }
    await stripe.redeliver();
    expect((await current(u.token)).plan).toBe('pro');
    expect(await walletOf(db(), u.email)).toMatchObject(PRO_ALLOWANCE);
    await stripe.redeliver();
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});

describe('student pricing', () => {
  it('only academic addresses; the mailed link verifies; the student price is used', async () => {
    const u = await t.signUp();
    const refused = await t.json('POST', '/api/payment/student', { token: u.token, body: { email: 'me@gmail.com' } });
    expect(refused.body.code).toBe('STUDENT_DOMAIN_NOT_ACCEPTED');
    const early = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month&student=true', {
      token: u.token,
    });
    expect(early.body.code).toBe('STUDENT_NOT_VERIFIED');
    expect(
      (await t.json('POST', '/api/payment/student', { token: u.token, body: { email: 'me@cs.mit.edu' } })).status,
    ).toBe(200);
    const token = new URL(t.mail.last('me@cs.mit.edu')!.link!).searchParams.get('studentToken')!;
    const other = await t.signUp();
    expect((await t.json('POST', '/api/payment/student/confirm', { token: other.token, body: { token } })).status).toBe(
      400,
    );
    const ok = await t.json('POST', '/api/payment/student/confirm', { token: u.token, body: { token } });
    expect(ok.body.data.studentEmail).toBe('me@cs.mit.edu');
    expect((await t.json('POST', '/api/payment/student/confirm', { token: u.token, body: { token } })).status).toBe(
      400,
    );
    // One address gives student prices to one account.
    expect(
      (await t.json('POST', '/api/payment/student', { token: other.token, body: { email: 'me@cs.mit.edu' } })).status,
    ).toBe(200);
    const otherToken = new URL(t.mail.last('me@cs.mit.edu')!.link!).searchParams.get('studentToken')!;
    const taken = await t.json('POST', '/api/payment/student/confirm', {
      token: other.token,
      body: { token: otherToken },
    });
    expect(taken.body.code).toBe('STUDENT_EMAIL_IN_USE');
    const res = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month&student=true', {
      token: u.token,
    });
    // The student price: half of 15 USD.
    expect(stripe.state.checkoutSessions.get(sessionIdOf(res.body.data.url))!.amount_subtotal).toBe(750);
  });
});

describe('without Stripe', () => {
  it('plans are shown, payments explain themselves, an admin assigns a plan', async () => {
    const bare = await createTestApp({}, { clock });
    try {
      const plans = await bare.json('GET', '/api/payment/plans');
      expect(plans.body.data).toMatchObject({ paymentsEnabled: false, trialDays: null, studentPricing: false });
      expect(plans.body.data.plans[0].prices.month).toEqual({ amount: 1500, currency: 'usd', studentAmount: null });
      const u = await bare.signUp();
      const res = await bare.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'PAYMENTS_DISABLED' });
      expect(res.body.message).toMatch(/not set up/);
      const hook = await bare.app.inject({ method: 'POST', url: '/api/payment/webhook', payload: '{}' });
      expect(hook.statusCode).toBe(503);
      expect((await bare.json('GET', '/api/payment/current-plan', { token: u.token })).body.data).toMatchObject({
        plan: 'free',
        paymentsEnabled: false,
        actions: [],
      });
      await bare.app.services.payments.assignPlan(u.user.id, {
        plan: 'plus',
        duration: 'month',
        seats: 1,
        until: null,
      });
      const assigned = (await bare.json('GET', '/api/payment/current-plan', { token: u.token })).body.data;
      expect(assigned).toMatchObject({ plan: 'plus', subscription: { source: 'admin', status: 'active' } });
      expect(await walletOf(bare.database.db, u.email)).toMatchObject(PLUS_ALLOWANCE);
      await bare.app.services.payments.removeAssignedPlan(u.user.id);
      expect((await bare.json('GET', '/api/payment/current-plan', { token: u.token })).body.data.plan).toBe('free');
      expect(await ledgerMismatches(bare.database.db)).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
