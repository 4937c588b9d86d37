import { APP_DEAL_ALLOWANCE, PRO_ALLOWANCE } from '@parley/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, users, wallets } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { seedParleyCatalogue, startFakeStripe, type FakeStripe } from '../../test/fake-stripe.js';
import { ledgerMismatches, setCredits, walletOf } from '../../test/wallets.js';

// Monthly top-ups of paid plans happen only inside what was paid for (decision 025), whatever else changes the wallet:
// a yearly plan's months, not the months after a renewal that failed; an early-bird or app-deal upgrade on top of a paid
// plan neither drops its top-ups nor adds the base plan's.

// The clock billing reads; Stripe's own objects (periods) use the wall clock.
let now = new Date();
const clock = () => now;

let stripe: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  stripe = await startFakeStripe();
  seedParleyCatalogue(stripe);
  t = await createTestApp(
    {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      RATE_LIMIT_PER_IP: '1000',
    },
    { clock },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  stripe.setWebhookUrl(`http://127.0.0.1:${address.port}/api/payment/webhook`);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const db = () => t.database.db;
const billing = () => t.app.services.billing;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function buy(token: string, query: string) {
  const res = await t.json('GET', `/api/payment/subscribe?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await stripe.completeCheckout(new URL(res.body.data.url).pathname.split('/').pop()!);
}
const subscriptionOf = async (email: string) => {
  const [row] = await db()
    .select({ sub: subscriptions })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(users.email, email));
  return row!.sub;
};
const planOf = async (email: string) => {
  const [row] = await db()
    .select({ plan: wallets.plan, basePlan: wallets.basePlan, monthlyRenewsAt: wallets.monthlyRenewsAt })
    .from(wallets)
    .innerJoin(users, eq(users.id, wallets.userId))
    .where(eq(users.email, email));
  return row!;
};
const emptied = (email: string) => setCredits(db(), email, { basicCredit: 0, advanceCredit: 0 });

describe('a yearly plan’s monthly top-ups', () => {
  it('come in each month of the year paid for, and not after it when its renewal failed', async () => {
    now = new Date();
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=year');
    const sub = await subscriptionOf(u.email);
    const after = new Date(sub.currentPeriodEnd!.getTime() + HOUR);
    // Each run tops up the month that is due: eleven months after the first.
    for (let month = 1; month <= 11; month++) {
      await emptied(u.email);
      await billing().renewDue(after);
      expect((await walletOf(db(), u.email)).basicCredit, `month ${month}`).toBe(PRO_ALLOWANCE.basicCredit);
    }
    // The year's months are all paid out: the next allowance is the next year's invoice's.
    await emptied(u.email);
    await billing().renewDue(after);
    expect((await walletOf(db(), u.email)).basicCredit).toBe(0);
    expect((await planOf(u.email)).monthlyRenewsAt).toBeNull();

    now = after;
    await stripe.renew(sub.stripeSubscriptionId!, { fail: true });
    expect((await planOf(u.email)).plan).toBe('pro');
    await billing().renewDue(after);
    await billing().renewDue(new Date(after.getTime() + 3 * DAY));
    expect(await walletOf(db(), u.email)).toMatchObject({ basicCredit: 0, advanceCredit: 0 });
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('come again when the next year is paid', async () => {
    now = new Date();
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=year');
    const sub = await subscriptionOf(u.email);
    const end = sub.currentPeriodEnd!;
    for (let month = 1; month <= 11; month++) await billing().renewDue(new Date(end.getTime() + HOUR));
    now = new Date(end.getTime() + HOUR);
    await emptied(u.email);
    await stripe.renew(sub.stripeSubscriptionId!);
    expect((await walletOf(db(), u.email)).basicCredit).toBe(PRO_ALLOWANCE.basicCredit);
    const next = (await planOf(u.email)).monthlyRenewsAt!;
    expect(next.getTime()).toBeGreaterThan(end.getTime());
    await emptied(u.email);
    await billing().renewDue(new Date(next.getTime() + 1000));
    expect((await walletOf(db(), u.email)).basicCredit).toBe(PRO_ALLOWANCE.basicCredit);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('of an admin’s grant with an end date: none after that date, even before the plan is ended', async () => {
    now = new Date();
    const u = await t.signUp();
    const until = new Date(now.getTime() + 45 * DAY);
    await t.app.services.payments.assignPlan(u.user.id, { plan: 'pro', duration: 'year', seats: 1, until });
    const first = (await planOf(u.email)).monthlyRenewsAt!;
    await emptied(u.email);
    await billing().renewDue(new Date(first.getTime() + 1000));
    expect((await walletOf(db(), u.email)).basicCredit).toBe(PRO_ALLOWANCE.basicCredit);
    // The month after that one starts after the grant's end.
    await emptied(u.email);
    await billing().renewDue(new Date(until.getTime() + 30 * DAY));
    expect((await walletOf(db(), u.email)).basicCredit).toBe(0);
    expect((await planOf(u.email)).monthlyRenewsAt).toBeNull();
  });
});

describe('an early-bird or app-deal upgrade on a paid plan', () => {
  it('keeps a yearly plan’s monthly top-ups (early-bird upgrade and early-bird sign-in)', async () => {
    for (const via of ['upgrade', 'sign-in'] as const) {
      now = new Date();
      const u = await t.signUp();
      await buy(u.token, 'plan=pro&planDuration=year');
      const paidFor = (await planOf(u.email)).monthlyRenewsAt!;
      expect(paidFor).not.toBeNull();
      const res =
        via === 'upgrade'
          ? await t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token })
          : await t.json('POST', '/api/earlyBird/signInEarlyBird', {
              body: { email: u.email, password: u.password },
            });
      expect(res.status, `${via}: ${JSON.stringify(res.body)}`).toBe(200);
      await emptied(u.email);
      await billing().renewDue(new Date(paidFor.getTime() + 60_000));
      expect((await walletOf(db(), u.email)).basicCredit, via).toBe(PRO_ALLOWANCE.basicCredit);
      expect(await planOf(u.email), via).toMatchObject({ plan: 'pro', basePlan: 'earlyBird' });
    }
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('adds no monthly top-up to a monthly plan; the app deal’s own start when the paid plan ends', async () => {
    now = new Date();
    const u = await t.signUp();
    await buy(u.token, 'plan=pro&planDuration=month');
    expect((await planOf(u.email)).monthlyRenewsAt).toBeNull();
    const [code] = await t.app.services.users.createLicenceCodes(1);
    expect((await t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code } })).status).toBe(200);

    const sub = await subscriptionOf(u.email);
    now = new Date(sub.currentPeriodEnd!.getTime() + HOUR);
    await stripe.renew(sub.stripeSubscriptionId!, { fail: true });
    await emptied(u.email);
    await billing().renewDue(new Date(now.getTime() + 6 * DAY));
    expect(await walletOf(db(), u.email)).toMatchObject({ basicCredit: 0, advanceCredit: 0 });
    expect(await planOf(u.email)).toMatchObject({ plan: 'pro', basePlan: 'appDeal', monthlyRenewsAt: null });

    // The grace period over, the wallet is back on the app deal, which tops itself up monthly from then on.
    now = new Date(now.getTime() + 8 * DAY);
    expect(await t.app.services.payments.endDue()).toBeGreaterThanOrEqual(1);
    const ended = await planOf(u.email);
    expect(ended).toMatchObject({ plan: 'appDeal', basePlan: 'appDeal' });
    await emptied(u.email);
    await billing().renewDue(new Date(ended.monthlyRenewsAt!.getTime() + 1000));
    expect(await walletOf(db(), u.email)).toMatchObject({
      basicCredit: APP_DEAL_ALLOWANCE.basicCredit,
      advanceCredit: APP_DEAL_ALLOWANCE.advanceCredit,
    });
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});
