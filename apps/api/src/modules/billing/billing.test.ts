import { and, eq, sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users, walletLedger, wallets } from '../../db/schema/index.js';
import { hashSecret } from '../../lib/crypto.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { ledgerMismatches, recordUse, setCredits, usageMismatches, walletOf } from '../../test/wallets.js';
import * as q from './billing.queries.js';

// The clock the app's billing reads: tests move it to cross midnights and months.
let now = new Date('2026-11-23T12:00:00Z');
const clock = () => now;

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp(
    {
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      RATE_LIMIT_PER_IP: '1000',
      AI_RATE_PER_USER: '1000',
      AI_RATE_PER_IP: '10000',
    },
    { clock },
  );
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE'; // a basic-tier model
const billing = () => t.app.services.billing;
const payerOf = async (email: string) => {
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  const w = await walletOf(t.database.db, email);
  return { user: user!, wallet: { id: w.id, plan: 'free' as const } };
};
// PostgreSQL only: the pool's own connections, and a wait for `n` connections of this database to wait for a lock (each
// step of a test queued before the next).
const pool = () => (t.database.db as unknown as { $client: Pool }).$client;
const waitingForLocks = async (n: number) => {
  for (let i = 0; i < 500; i++) {
    const { rows } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${n} connections never waited for a lock`);
};
const rewrite = (token: string) =>
  t.json('POST', '/api/ai/edit-message', { token, body: { text: 'make it better', model: MODEL } });

describe('wallets and their ledger', () => {
  it('a new account has its plan’s allowance, each credit granted by a ledger row', async () => {
    const u = await t.signUp();
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      dailyCredit: 3,
      basicCredit: 30,
      advanceCredit: 5,
      extraAdvanceCredit: 0,
    });
    const w = await walletOf(t.database.db, u.email);
    const rows = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, w.id));
    expect(rows.map((r) => [r.kind, r.balance, r.amount]).sort()).toEqual(
      [
        ['grant', 'advance', 5],
        ['grant', 'basic', 30],
        ['grant', 'daily', 3],
      ].sort(),
    );
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('daily credits are spent first (basic and advance models), then the tier’s own', async () => {
    const u = await t.signUp();
    for (let i = 0; i < 4; i++) expect((await rewrite(u.token)).status).toBe(200);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, basicCredit: 29, basicUse: 4 });
    const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
    expect(profile).toMatchObject({
      credits: { dailyCredit: 0, basicCredit: 29 },
      basicUse: 4,
      monthlyUse: 4,
    });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('a failed call gives its credit back with a refund row', async () => {
    const u = await t.signUp();
    const failed = await t.json('POST', '/api/ai/edit-message', {
      token: u.token,
      body: { text: 'please #fail500', model: MODEL },
    });
    expect(failed.status).toBe(502);
    const w = await walletOf(t.database.db, u.email);
    expect(w).toMatchObject({ dailyCredit: 3, basicCredit: 30, basicUse: 0 });
    const rows = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, w.id));
    const reserve = rows.find((r) => r.kind === 'reserve')!;
    expect(reserve).toMatchObject({ state: 'refunded', balance: 'daily', amount: -1 });
    expect(rows.find((r) => r.kind === 'refund')).toMatchObject({ reservationId: reserve.id, amount: 1 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('a call of several units (images) reserves each and charges only those made', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { advanceCredit: 7, dailyCredit: 0 });
    const payer = await payerOf(u.email);
    const use = { capability: 'chat', tier: 'advance', keySource: 'server', credits: 2, units: 3 } as const;
    const made = await billing().metered(payer, use, async () => ({ made: 2 }), { unitsMade: (r) => r.made });
    expect(made).toEqual({ made: 2 });
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ advanceCredit: 3 });

    // Four units of 2 are more than the 3 left: nothing is taken, nothing runs.
    let ran = false;
    const refused = billing().metered(payer, { ...use, units: 4 }, async () => (ran = true));
    // Said for the whole call: 8 needed, 3 there (1 unit was reserved, then given back).
    await expect(refused).rejects.toMatchObject({
      code: 'OUT_OF_CREDITS',
      params: { tier: 'advance', needed: 8, available: 3 },
    });
    expect(ran).toBe(false);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ advanceCredit: 3 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe('a call that daily credits pay only part of', () => {
  const use = { capability: 'chat', tier: 'advance', keySource: 'server', credits: 2 } as const;
  const reserveRows = async (walletId: string) =>
    (await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, walletId)))
      .filter((r) => r.kind === 'reserve')
      .sort((a, b) => a.amount - b.amount || a.balance.localeCompare(b.balance));

  /** Reservation `id` (both its rows) made a day ago: older than any request lasts, so the sweep takes it. */
  const aDayOld = (id: string) =>
    t.database.db.execute(
      sql`UPDATE wallet_ledger SET created_at = created_at - interval '1 day'
           WHERE id = ${id} OR id = (SELECT reservation_id FROM wallet_ledger WHERE id = ${id})`,
    );

  it('takes what daily credits there are, the rest from the tier’s own: one reservation of two rows, charged once', async () => {
    const u = await t.signUp(); // 3 daily, 5 advance
    const payer = await payerOf(u.email);
    // Four units of 2 from 3 + 5: the second unit takes the last daily credit and one advanced.
    expect(await billing().metered(payer, { ...use, units: 4 }, async () => 'made')).toBe('made');
    const w = await walletOf(t.database.db, u.email);
    expect(w).toMatchObject({ dailyCredit: 0, advanceCredit: 0, advanceUse: 8 });
    const rows = await reserveRows(w.id);
    expect(rows.map((r) => [r.balance, r.amount, r.state])).toEqual([
      ['advance', -2, 'charged'],
      ['advance', -2, 'charged'],
      ['daily', -2, 'charged'],
      ['advance', -1, 'charged'],
      ['daily', -1, 'charged'],
    ]);
    // The daily part is the reservation, and names the tier's part.
    const tierPart = rows.find((r) => r.balance === 'advance' && r.amount === -1)!;
    expect(rows.find((r) => r.balance === 'daily' && r.amount === -1)!.reservationId).toBe(tierPart.id);
    expect(rows.filter((r) => r.reservationId !== null)).toHaveLength(1);
    // Counted once in the use by day and in the 30-day sums.
    const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
    expect(profile).toMatchObject({ advanceUse: 8, monthlyUse: 8 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('a failed call gives each balance its part back, and a reservation settles once', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 1, advanceCredit: 5 });
    const payer = await payerOf(u.email);
    await expect(
      billing().metered(payer, use, async () => {
        throw new Error('the provider failed');
      }),
    ).rejects.toThrow('the provider failed');
    const w = await walletOf(t.database.db, u.email);
    expect(w).toMatchObject({ dailyCredit: 1, advanceCredit: 5, advanceUse: 0 });
    const all = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, w.id));
    const refunds = all.filter((r) => r.kind === 'refund');
    expect(refunds.map((r) => [r.balance, r.amount]).sort()).toEqual([
      ['advance', 1],
      ['daily', 1],
    ]);
    for (const refund of refunds) {
      expect(all.find((r) => r.id === refund.reservationId)).toMatchObject({
        kind: 'reserve',
        balance: refund.balance,
        state: 'refunded',
      });
    }

    // Reserved, then charged twice and refunded: the first settlement is the only one.
    const reserved = await q.reserveCredits(t.database.db, w.id, payer.user.id, 'advance', 2, 'chat', now);
    expect(reserved.id).not.toBeNull();
    await q.chargeReservation(t.database.db, reserved.id!);
    await q.chargeReservation(t.database.db, reserved.id!);
    await q.refundReservation(t.database.db, reserved.id!);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, advanceCredit: 4, advanceUse: 2 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('left pending, both rows are refunded by the sweep', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 1, advanceCredit: 5 });
    const payer = await payerOf(u.email);
    const reserved = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', 2, 'chat', now);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, advanceCredit: 4 });
    await aDayOld(reserved.id!);
    expect(await q.refundStaleReservations(t.database.db, 3600)).toBe(2);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 1, advanceCredit: 5 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('daily credits go back only to the day they were taken from, a renewal or a change of time zone meanwhile', async () => {
    now = new Date('2026-11-23T23:59:00Z');
    const u = await t.signUp(); // UTC: the day ends at midnight
    await setCredits(t.database.db, u.email, { dailyCredit: 1, advanceCredit: 5 });
    const payer = await payerOf(u.email);
    const early = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', 2, 'chat', now);
    expect(early.id).not.toBeNull();
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, advanceCredit: 4 });

    // Midnight: the day's credits are renewed to the allowance while the call is still running; then it fails.
    now = new Date('2026-11-24T00:00:10Z');
    await billing().renewDue();
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, advanceCredit: 4 });
    await q.refundReservation(t.database.db, early.id!);
    // The advanced credit comes back; yesterday's daily one does not come on top of today's allowance.
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, advanceCredit: 5 });
    const rows = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, payer.wallet.id));
    expect(rows.filter((r) => r.kind === 'reserve' && r.amount < 0).map((r) => r.state)).toEqual([
      'refunded',
      'refunded',
    ]);
    expect(rows.filter((r) => r.kind === 'refund').map((r) => [r.balance, r.amount])).toEqual([['advance', 1]]);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);

    // Taken today, then the person moves to a zone where the day ends later (at 20:00 UTC, Los Angeles' midnight is
    // 12 hours away, UTC's 4): still today's, given back in full.
    now = new Date('2026-11-24T20:00:00Z');
    const today = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', 2, 'chat', now);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 1, advanceCredit: 5 });
    expect(
      (await t.json('POST', '/api/user/profile', { token: u.token, body: { timezone: 'America/Los_Angeles' } })).status,
    ).toBe(200);
    expect(
      (await t.database.db.select().from(wallets).where(eq(wallets.id, payer.wallet.id)))[0]!.dailyRenewsAt,
    ).toEqual(new Date('2026-11-25T08:00:00Z'));
    await q.refundReservation(t.database.db, today.id!);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, advanceCredit: 5 });
    // The sweep of reservations left pending follows the same rule.
    const left = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', 4, 'chat', now);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, advanceCredit: 4 });
    now = new Date('2026-11-25T09:00:00Z');
    await billing().renewDue();
    await aDayOld(left.id!);
    expect(await q.refundStaleReservations(t.database.db, 3600)).toBe(2);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, advanceCredit: 5 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    now = new Date('2026-11-23T12:00:00Z');
  });

  it('a balance below zero does not stop daily credits that cover the call; a negative amount takes nothing', async () => {
    const u = await t.signUp();
    const payer = await payerOf(u.email);
    // Only data edited by hand has a negative balance: no code path writes one.
    await t.database.db.execute(sql`UPDATE wallets SET advance_credit = -1 WHERE id = ${payer.wallet.id}`);
    await t.database.db.execute(
      sql`INSERT INTO wallet_ledger (wallet_id, balance, amount, kind) VALUES (${payer.wallet.id}, 'advance', -6, 'adjust')`,
    );
    expect(await billing().metered(payer, use, async () => 'made')).toBe('made');
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 1, advanceCredit: -1 });
    const negative = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', -3, 'chat', now);
    expect(negative.id).toBeNull();
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 1, advanceCredit: -1 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('never spends more than there is, however many ask at once', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 3, advanceCredit: 4 });
    const payer = await payerOf(u.email);
    // 7 credits: three calls of 2 (the second one split), then 1 left that no call of 2 can take.
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => billing().metered(payer, use, async () => 'made')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ advanceUse: 6 });
    const w = await walletOf(t.database.db, u.email);
    expect(w.dailyCredit + w.advanceCredit).toBe(1);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

it('a refusal for credits says, in the answer, what the call needed and what the wallet has', async () => {
  const u = await t.signUp();
  await setCredits(t.database.db, u.email, { dailyCredit: 1, basicCredit: 0 });
  expect((await rewrite(u.token)).status).toBe(200);
  const refused = await rewrite(u.token);
  expect(refused.status).toBe(402);
  expect(refused.body).toMatchObject({
    code: 'OUT_OF_CREDITS',
    message: 'You need to upgrade plan to continue...',
    credits: { tier: 'basic', needed: 1, available: 0 },
  });
});

describe('daily credits renew at the person’s midnight', () => {
  it('in two time zones, with the clock moved', async () => {
    now = new Date('2026-11-23T12:00:00Z');
    const paris = await t.signUp({ timezone: 'Europe/Paris' });
    const york = await t.signUp({ timezone: 'America/New_York' });
    for (const who of [paris, york]) await setCredits(t.database.db, who.email, { dailyCredit: 0 });
    const renewsAt = async (email: string) =>
      (
        await t.database.db
          .select()
          .from(wallets)
          .where(eq(wallets.id, (await walletOf(t.database.db, email)).id))
      )[0]!.dailyRenewsAt.toISOString();
    const daily = async (email: string) => (await walletOf(t.database.db, email)).dailyCredit;
    expect(await renewsAt(paris.email)).toBe('2026-11-23T23:00:00.000Z');
    expect(await renewsAt(york.email)).toBe('2026-11-24T05:00:00.000Z');
    // Changing time zones never brings a renewal earlier (hopping zones would renew daily credits again and again);
    // the next one falls on the new zone's midnight unless that comes sooner.
    expect(
      (await t.json('POST', '/api/user/profile', { token: york.token, body: { timezone: 'Asia/Tokyo' } })).status,
    ).toBe(200);
    expect(await renewsAt(york.email)).toBe('2026-11-24T05:00:00.000Z');
    expect(
      (await t.json('POST', '/api/user/profile', { token: york.token, body: { timezone: 'America/Los_Angeles' } }))
        .status,
    ).toBe(200);
    expect(await renewsAt(york.email)).toBe('2026-11-24T08:00:00.000Z');
    expect(
      (await t.json('POST', '/api/user/profile', { token: york.token, body: { timezone: 'America/New_York' } })).status,
    ).toBe(200);
    await t.database.db.execute(sql`UPDATE wallets SET daily_renews_at = ${new Date('2026-11-24T05:00:00Z')}
      WHERE user_id = (SELECT id FROM users WHERE email = ${york.email})`);

    // 23:59 in Paris: nothing yet.
    now = new Date('2026-11-23T22:59:00Z');
    await billing().renewDue();
    expect([await daily(paris.email), await daily(york.email)]).toEqual([0, 0]);
    // Midnight in Paris (23:00 UTC): Paris renews; in New York it is 18:00.
    now = new Date('2026-11-23T23:00:30Z');
    await billing().renewDue();
    expect([await daily(paris.email), await daily(york.email)]).toEqual([3, 0]);
    expect(await renewsAt(paris.email)).toBe('2026-11-24T23:00:00.000Z');
    // Midnight in New York (05:00 UTC): New York renews.
    now = new Date('2026-11-24T04:59:00Z');
    await billing().renewDue();
    expect(await daily(york.email)).toBe(0);
    now = new Date('2026-11-24T05:00:01Z');
    await billing().renewDue();
    expect(await daily(york.email)).toBe(3);
    expect(await renewsAt(york.email)).toBe('2026-11-25T05:00:00.000Z');
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });

  it('the dashboard shows the daily credits going down, and back the next day', async () => {
    now = new Date('2026-11-25T10:00:00Z');
    const u = await t.signUp();
    expect((await rewrite(u.token)).status).toBe(200);
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage).toMatchObject({ plan: 'free', timezone: 'UTC', today: '2026-11-25', credits: { dailyCredit: 2 } });
    expect(usage.dailyRenewsAt).toBe('2026-11-26T00:00:00.000Z');
    now = new Date('2026-11-26T00:00:05Z');
    await billing().renewDue();
    const next = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(next).toMatchObject({ today: '2026-11-26', credits: { dailyCredit: 3 } });
    expect(next.days.at(-2)).toEqual({ date: '2026-11-25', basic: 1, advance: 0, extraAdvance: 0 });
  });
});

describe('a wallet whose midnight has passed before the renewal job came by', () => {
  // The job runs every CREDIT_RENEWAL_SECONDS: in between, yesterday's daily credits must not decide what is spent
  // or shown. Each way of spending or reading renews the wallet first.
  const dueAtMidnight = async () => {
    now = new Date('2026-11-28T10:00:00Z');
    const u = await t.signUp(); // UTC: renews at 2026-11-29T00:00Z
    await setCredits(t.database.db, u.email, { dailyCredit: 0 });
    const payer = await payerOf(u.email); // resolved before midnight, as a request in flight would be
    now = new Date('2026-11-29T00:00:10Z'); // midnight has passed; the job has not run
    return { u, payer };
  };
  const renewsAt = async (email: string) =>
    (
      await t.database.db
        .select()
        .from(wallets)
        .where(eq(wallets.id, (await walletOf(t.database.db, email)).id))
    )[0]!.dailyRenewsAt;

  it('the metered path pays with today’s daily credit, not a basic one', async () => {
    const { u, payer } = await dueAtMidnight();
    const use = { capability: 'chat', tier: 'basic', keySource: 'server' } as const;
    await billing().metered(payer, use, async () => 'done');
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 2, basicCredit: 30 });
    expect(await renewsAt(u.email)).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('the chat turn’s reservation with the session check too', async () => {
    const { u } = await dueAtMidnight();
    const found = await billing().reserveForSession(hashSecret(u.token), 'basic', 'chat', now);
    expect(found.reservation).not.toBeNull();
    await found.reservation!.charge();
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 2, basicCredit: 30 });
    expect(await renewsAt(u.email)).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a wallet without an owner is renewed at midnight UTC, never left unspendable', async () => {
    now = new Date('2026-11-30T12:00:00Z');
    const [orphan] = await t.database.db
      .insert(wallets)
      .values({ dailyCredit: 0, dailyRenewsAt: new Date('2026-11-30T00:00:00Z') })
      .returning();
    await billing().renewDue();
    const [renewed] = await t.database.db.select().from(wallets).where(eq(wallets.id, orphan!.id));
    expect(renewed).toMatchObject({ dailyCredit: 3, dailyRenewsAt: new Date('2026-12-01T00:00:00Z') });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('and the profile and the dashboard show today’s', async () => {
    const { u } = await dueAtMidnight();
    const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
    expect(profile.credits).toMatchObject({ dailyCredit: 3, basicCredit: 30 });
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage).toMatchObject({ credits: { dailyCredit: 3 }, dailyRenewsAt: '2026-11-30T00:00:00.000Z' });
    // Renewed once: the job, coming by later, finds it renewed already.
    await billing().renewDue();
    const { id } = await walletOf(t.database.db, u.email);
    const renewals = await t.database.db
      .select()
      .from(walletLedger)
      .where(and(eq(walletLedger.walletId, id), eq(walletLedger.kind, 'renewal')));
    expect(renewals.map((r) => [r.balance, r.amount])).toEqual([['daily', 3]]);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });
});

describe('the free tier: 3 a day of the gated capabilities', () => {
  it('20 concurrent summaries: exactly 3 pass; the next day 3 more', async () => {
    now = new Date('2026-11-27T09:00:00Z');
    const u = await t.signUp();
    const summarize = () =>
      t.json('POST', '/api/ai/summary', {
        token: u.token,
        body: { kind: 'page', text: 'A long page about tides.', model: MODEL },
        lang: 'es',
      });
    const results = await Promise.all(Array.from({ length: 20 }, summarize));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(17);
    expect(refused[0]!.body).toMatchObject({
      code: 'DAILY_LIMIT_REACHED',
      message: 'Ya has usado hoy tus 3 usos gratuitos de esta función. Mejora tu plan para continuar o vuelve mañana.',
    });
    // Three credits went, no more; other capabilities are not gated.
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, basicCredit: 30 });
    expect((await rewrite(u.token)).status).toBe(200);
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage.gates.find((g: { capability: string }) => g.capability === 'summary')).toEqual({
      capability: 'summary',
      used: 3,
      limit: 3,
      left: 0,
    });
    expect(usage.gates.find((g: { capability: string }) => g.capability === 'reply')).toMatchObject({ left: 3 });

    now = new Date('2026-11-28T00:00:01Z');
    const tomorrow = await Promise.all(Array.from({ length: 5 }, summarize));
    expect(tomorrow.filter((r) => r.status === 200)).toHaveLength(3);
  });

  it('a use that fails is given back', async () => {
    now = new Date('2026-11-29T09:00:00Z');
    const u = await t.signUp();
    const failing = await t.json('POST', '/api/ai/summary', {
      token: u.token,
      body: { kind: 'page', text: 'Fail please #fail500', model: MODEL },
    });
    expect(failing.status).toBe(502);
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage.gates.find((g: { capability: string }) => g.capability === 'summary')).toMatchObject({ used: 0 });
  });

  describe('a change of time zone is not a new day of uses', () => {
    const summarize = (token: string) =>
      t.json('POST', '/api/ai/summary', {
        token,
        body: { kind: 'page', text: 'Summarize this page please', model: MODEL },
      });
    const moveTo = async (token: string, timezone: string) =>
      expect((await t.json('POST', '/api/user/profile', { token, body: { timezone } })).status).toBe(200);
    const gate = async (token: string, capability: string) =>
      (await t.json('GET', '/api/user/usage', { token })).body.data.gates.find(
        (g: { capability: string }) => g.capability === capability,
      );

    it('hopping to the zones where it is tomorrow and yesterday lets no more through; the dashboard agrees', async () => {
      now = new Date('2026-12-07T11:00:00Z');
      const u = await t.signUp();
      let passed = 0;
      for (const zone of ['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12']) {
        await moveTo(u.token, zone);
        for (let i = 0; i < 4; i++) if ((await summarize(u.token)).status === 200) passed++;
        expect(await gate(u.token, 'summary'), zone).toEqual({ capability: 'summary', used: 3, limit: 3, left: 0 });
      }
      expect(passed).toBe(3);
    });

    it('when a new zone carries the day’s end past a date, its uses go with it; the next day brings 3 more', async () => {
      // At 11:00 UTC it is 23:00 the day before at UTC−12: that day ends at 12:00 UTC, UTC's at the next midnight.
      now = new Date('2026-12-08T11:00:00Z');
      const u = await t.signUp({ timezone: 'Etc/GMT+12' });
      for (let i = 0; i < 3; i++) expect((await summarize(u.token)).status).toBe(200);
      await moveTo(u.token, 'UTC');
      expect((await summarize(u.token)).status).toBe(402);
      expect(await gate(u.token, 'summary')).toMatchObject({ used: 3, left: 0 });
      // The day ends at UTC's midnight now: the uses come back then, with the daily credits.
      now = new Date('2026-12-08T23:59:00Z');
      expect((await summarize(u.token)).status).toBe(402);
      now = new Date('2026-12-09T00:00:01Z');
      expect(await gate(u.token, 'summary')).toMatchObject({ used: 0, left: 3 });
      const next = await Promise.all(Array.from({ length: 5 }, () => summarize(u.token)));
      expect(next.filter((r) => r.status === 200)).toHaveLength(3);
      expect(await gate(u.token, 'summary')).toMatchObject({ used: 3, left: 0 });
    });
  });

  it('does not apply to a plan without it (app deal), whose allowance renews each month without payment', async () => {
    now = new Date('2026-11-30T09:00:00Z');
    const u = await t.signUp();
    const [code] = await t.app.services.users.createLicenceCodes(1);
    expect((await t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code } })).status).toBe(200);
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage).toMatchObject({ plan: 'appDeal', gates: [] });
    expect(usage.monthlyRenewsAt).toBe('2026-12-30T09:00:00.000Z');
    await recordUse(t.database.db, u.email, 'basic', 100);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ basicCredit: 900 });
    now = new Date('2026-12-30T09:00:01Z');
    expect((await billing().renewDue()).monthly).toBeGreaterThanOrEqual(1);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ basicCredit: 1000 });
    expect((await t.json('GET', '/api/user/usage', { token: u.token })).body.data.monthlyRenewsAt).toBe(
      '2027-01-30T09:00:00.000Z',
    );
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe('use over the last 30 days', () => {
  it('comes from the ledger, day by day; older use falls out of the window', async () => {
    now = new Date('2026-12-10T15:00:00Z');
    const u = await t.signUp();
    await recordUse(t.database.db, u.email, 'basic', 1, now);
    await recordUse(t.database.db, u.email, 'basic', 1, new Date('2026-12-03T10:00:00Z'));
    await recordUse(t.database.db, u.email, 'advance', 1, new Date('2026-10-31T10:00:00Z')); // 40 days ago
    const usage = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(usage.days).toHaveLength(30);
    expect(usage.days[0].date).toBe('2026-11-11');
    expect(usage.days.at(-1)).toEqual({ date: '2026-12-10', basic: 1, advance: 0, extraAdvance: 0 });
    expect(usage.days.find((d: { date: string }) => d.date === '2026-12-03')).toMatchObject({ basic: 1 });
    expect(usage.totals).toEqual({ basic: 2, advance: 0, extraAdvance: 0 });
    const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
    expect(profile).toMatchObject({ basicUse: 2, advanceUse: 0, monthlyUse: 2 });
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
  it('is the sum of every hour of the UTC days after the one 30 days ago, read from those days', async () => {
    now = new Date('2026-12-10T15:20:00Z');
    const u = await t.signUp();
    const tiers = ['basic', 'advance', 'extraAdvance'] as const;
    // Around each start of the window below, and the days between: one to three credits an hour.
    const hours = [
      '2026-11-09T23:59:00Z',
      '2026-11-10T14:59:00Z',
      '2026-11-10T15:00:00Z',
      '2026-11-10T15:40:00Z',
      '2026-11-10T16:10:00Z',
      '2026-11-10T23:30:00Z',
      '2026-11-11T00:00:00Z',
      '2026-11-11T23:10:00Z',
      '2026-11-12T00:20:00Z',
      '2026-11-25T12:00:00Z',
      '2026-12-10T15:10:00Z',
    ];
    for (const [i, at] of hours.entries())
      await recordUse(t.database.db, u.email, tiers[i % 3]!, 1 + (i % 3), new Date(at));
    const walletId = (await walletOf(t.database.db, u.email)).id;
    // The hours of the UTC days after the one 30 days before, up to today's (the clock also goes back a day below).
    const expected = async (since: Date) => {
      const result = (await t.database.db.execute(sql`
        SELECT tier, sum(used)::int AS used FROM wallet_usage
         WHERE wallet_id = ${walletId} AND (hour AT TIME ZONE 'UTC')::date > (${since}::timestamptz AT TIME ZONE 'UTC')::date
           AND (hour AT TIME ZONE 'UTC')::date <= (${now}::timestamptz AT TIME ZONE 'UTC')::date
         GROUP BY tier`)) as unknown as {
        rows: { tier: string; used: number }[];
      };
      const of = (tier: string) => result.rows.find((r) => r.tier === tier)?.used ?? 0;
      return { basicUse: of('basic'), advanceUse: of('advance'), extraAdvanceUse: of('extraAdvance') };
    };
    const seen = new Set<string>();
    for (const at of [
      '2026-12-09T12:00:00Z',
      '2026-12-10T15:20:00Z',
      '2026-12-10T15:59:59Z',
      '2026-12-10T16:00:00Z',
      '2026-12-10T23:45:00Z',
      '2026-12-11T00:00:00Z',
      '2026-12-11T00:30:00Z',
      '2026-12-12T00:10:00Z',
    ]) {
      now = new Date(at);
      const since = new Date(now.getTime() - 30 * 86400_000);
      const want = await expected(since);
      seen.add(JSON.stringify(want));
      const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
      expect(profile, at).toMatchObject(want);
      expect(await q.recentUse(t.database.db, walletId, at.slice(0, 10)), at).toEqual({
        basic: want.basicUse,
        advance: want.advanceUse,
        extraAdvance: want.extraAdvanceUse,
      });
    }
    // The window moved across four days of recorded use: four answers.
    expect(seen.size).toBe(4);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe('reservations left pending', () => {
  it('are refunded once they are older than any request can last; fresh and settled ones are left alone', async () => {
    const a = await payerOf((await t.signUp()).email);
    const b = await payerOf((await t.signUp()).email);
    const ledger = t.database.ledger;
    const start = { a: await walletOf(t.database.db, a.user.email), b: await walletOf(t.database.db, b.user.email) };

    // A process stopped mid-request: two of a's reservations and one of b's stay pending, an hour old.
    await q.reserveCredits(ledger, a.wallet.id, a.user.id, 'basic', 1, 'chat', new Date());
    await q.reserveCredits(ledger, a.wallet.id, a.user.id, 'extraAdvance', 1, 'chat', new Date()); // no extra credits: refused
    await q.reserveCredits(ledger, a.wallet.id, a.user.id, 'advance', 1, 'chat', new Date());
    await q.reserveCredits(ledger, b.wallet.id, b.user.id, 'basic', 1, 'chat', new Date());
    // Meanwhile: one reserved an hour ago too, and charged; one still running.
    const { id: charged } = await q.reserveCredits(ledger, a.wallet.id, a.user.id, 'basic', 1, 'chat', new Date());
    await t.database.db.execute(sql`UPDATE wallet_ledger SET created_at = now() - interval '1 hour'
      WHERE state = 'reserved' AND wallet_id IN (${a.wallet.id}, ${b.wallet.id})`);
    await q.chargeReservation(ledger, charged!);
    const { id: running } = await q.reserveCredits(ledger, b.wallet.id, b.user.id, 'basic', 1, 'chat', new Date());

    expect(await billing().sweepStale(15 * 60)).toBe(3);
    const afterA = await walletOf(t.database.db, a.user.email);
    expect(afterA.dailyCredit + afterA.basicCredit).toBe(start.a.dailyCredit + start.a.basicCredit - 1); // the charged one
    expect(afterA.advanceCredit).toBe(start.a.advanceCredit);
    const afterB = await walletOf(t.database.db, b.user.email);
    expect(afterB.dailyCredit + afterB.basicCredit).toBe(start.b.dailyCredit + start.b.basicCredit - 1); // running
    const pending = await t.database.db.select().from(walletLedger).where(eq(walletLedger.state, 'reserved'));
    expect(pending.map((l) => l.walletId)).toEqual([b.wallet.id]);

    // Nothing twice: a second sweep finds nothing, and the running request still settles normally.
    expect(await billing().sweepStale(15 * 60)).toBe(0);
    await q.refundReservation(ledger, running!);
    const endB = await walletOf(t.database.db, b.user.email);
    expect(endB.dailyCredit + endB.basicCredit).toBe(start.b.dailyCredit + start.b.basicCredit);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('a split reservation settled as the sweep comes', () => {
  it.each(['charged', 'refunded'] as const)('is %s once, with neither statement ended as a deadlock', async (end) => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 1, advanceCredit: 5 });
    const payer = await payerOf(u.email);
    const { id } = await q.reserveCredits(t.database.db, payer.wallet.id, payer.user.id, 'advance', 2, 'chat', now);
    const [daily] = await t.database.db.select().from(walletLedger).where(eq(walletLedger.id, id!));
    const part = daily!.reservationId!;
    // Both rows a day old, as old as each other (as made), and the tier's part written again first: the sweep, which
    // scans them by age and then by where they lie, meets it first.
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    for (const row of [part, id]) {
      await t.database.db.execute(sql`UPDATE wallet_ledger SET created_at = ${dayAgo} WHERE id = ${row}`);
    }

    const holder = await pool().connect();
    try {
      // The daily part is held (by a third party: here, this test) while the settlement and the sweep start, in
      // that order; once it is let go, each takes what it waits for in turn.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM wallet_ledger WHERE id = $1 FOR UPDATE', [id]);
      const settled =
        end === 'charged' ? q.chargeReservation(t.database.db, id!) : q.refundReservation(t.database.db, id!);
      await waitingForLocks(1);
      const swept = q.refundStaleReservations(t.database.db, 3600);
      await waitingForLocks(2);
      await holder.query('COMMIT');
      // Without one order, the settlement holds the daily part and waits for the tier's, which the sweep holds while
      // it waits for the daily part: PostgreSQL ends one of them ("deadlock detected").
      // (What else the sweep finds pending in this database is not this test's: only that both finish is.)
      expect(await Promise.allSettled([settled, swept])).toMatchObject([
        { status: 'fulfilled' },
        { status: 'fulfilled' },
      ]);
    } finally {
      // Dropped, not returned to the pool: a failure above may have left its transaction open.
      holder.release(true);
    }
    const rows = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, payer.wallet.id));
    expect(rows.filter((r) => r.id === id || r.id === part).map((r) => r.state)).toEqual([end, end]);
    expect(await walletOf(t.database.db, u.email)).toMatchObject(
      end === 'charged' ? { dailyCredit: 0, advanceCredit: 4, advanceUse: 2 } : { dailyCredit: 1, advanceCredit: 5 },
    );
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe('a reservation made with the session check', () => {
  it('reserves only for a live session, and only what the balance covers', async () => {
    const a = await t.signUp();
    const tokenHash = hashSecret(a.token);
    const start = await walletOf(t.database.db, a.email);

    // Live: the session, its user and wallet come back with the credit taken (from the daily credits first).
    const live = await billing().reserveForSession(tokenHash, 'basic', 'chat', new Date());
    expect(live.found?.user.email).toBe(a.email);
    expect(live.reservation).not.toBeNull();
    expect((await walletOf(t.database.db, a.email)).dailyCredit).toBe(start.dailyCredit - 1);
    await live.reservation!.refund();
    expect(await walletOf(t.database.db, a.email)).toMatchObject({ dailyCredit: start.dailyCredit });

    // Past its expiry (as of the time given), or unknown: found or not, nothing is taken.
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    const later = new Date(session!.expiresAt.getTime() + 1);
    const expired = await billing().reserveForSession(tokenHash, 'basic', 'chat', later);
    expect(expired.found?.user.email).toBe(a.email);
    expect(expired.reservation).toBeNull();
    const unknown = await billing().reserveForSession(hashSecret('no-such-token'), 'basic', 'chat', new Date());
    expect(unknown).toMatchObject({ found: undefined, reservation: null });

    // Revoked: nothing taken either.
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
    expect((await billing().reserveForSession(tokenHash, 'basic', 'chat', new Date())).reservation).toBeNull();
    await t.database.db.update(sessions).set({ revokedAt: null }).where(eq(sessions.tokenHash, tokenHash));

    // Not enough credits in the tier asked for: the session still comes back, without a reservation.
    await setCredits(t.database.db, a.email, { dailyCredit: 0, advanceCredit: 0 });
    const broke = await billing().reserveForSession(tokenHash, 'advance', 'chat', new Date());
    expect(broke.found?.user.email).toBe(a.email);
    expect(broke.reservation).toBeNull();
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await usageMismatches(t.database.db)).toEqual([]);
  });
});

describe('no route reads credits from users any more', () => {
  it('the users table has no credit or use columns', async () => {
    const result = (await t.database.db.execute(sql`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'users'`)) as unknown as {
      rows: { column_name: string }[];
    };
    const columns = result.rows.map((r) => r.column_name);
    expect(columns).toContain('email');
    expect(columns.filter((c) => /credit|_use$/.test(c))).toEqual([]);
  });
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('renewals and spending at once, on PostgreSQL', () => {
  // PGlite has one connection: only PostgreSQL runs these at the same time.
  const dueAtMidnight = async () => {
    now = new Date('2026-12-02T10:00:00Z');
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 0 });
    now = new Date('2026-12-03T00:00:10Z');
    return u;
  };
  const use = { capability: 'chat', tier: 'basic', keySource: 'server' } as const;

  it('a request waits for a renewal in progress, then pays with the renewed daily credits', async () => {
    const u = await dueAtMidnight();
    const payer = await payerOf(u.email);
    let spent!: Promise<unknown>;
    await t.database.db.transaction(async (tx) => {
      // The job has the wallet (locked, being renewed) when the request comes.
      const due = await q.dueForDailyRenewal(tx, now, 10, payer.wallet.id);
      expect(due).toHaveLength(1);
      spent = billing().metered(payer, use, async () => 'done');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await q.renewDaily(tx, now, [{ id: payer.wallet.id, allowance: 3, next: new Date('2026-12-04T00:00:00Z') }]);
    });
    await expect(spent).resolves.toBe('done');
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 2, basicCredit: 30 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('requests at once on a wallet due for renewal: all paid with its daily credits, renewed once', async () => {
    // Eight wallets in turn, three requests at once on each (one the chat turn's): a request that found the wallet
    // being renewed by another must wait for it, not be refused.
    for (let round = 0; round < 8; round++) {
      const u = await dueAtMidnight();
      const payer = await payerOf(u.email);
      const results = await Promise.allSettled([
        billing().metered(payer, use, async () => 'done'),
        billing().metered(payer, use, async () => 'done'),
        billing()
          .reserveForSession(hashSecret(u.token), 'basic', 'chat', now)
          .then((r) => r.reservation!.charge()),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, basicCredit: 30 });
      const renewals = await t.database.db
        .select()
        .from(walletLedger)
        .where(and(eq(walletLedger.walletId, payer.wallet.id), eq(walletLedger.kind, 'renewal')));
      expect(renewals).toHaveLength(1);
    }
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')(
  'the kept 30-day use, charged while it is summed again',
  () => {
    // A wallet whose sums were kept for yesterday, and a reservation made today, not yet settled.
    const pendingOnANewDay = async () => {
      now = new Date('2026-12-14T22:00:00Z');
      const u = await t.signUp();
      const payer = await payerOf(u.email);
      await recordUse(t.database.db, u.email, 'advance', 2, new Date('2026-12-14T09:00:00Z'));
      expect(await q.recentUse(t.database.db, payer.wallet.id, '2026-12-14')).toEqual({
        basic: 0,
        advance: 2,
        extraAdvance: 0,
      });
      now = new Date('2026-12-15T08:00:00Z');
      const { reservation } = await billing().reserveForSession(hashSecret(u.token), 'basic', 'chat', now);
      expect(reservation).not.toBeNull();
      const [row] = await t.database.db
        .select({ id: walletLedger.id })
        .from(walletLedger)
        .where(and(eq(walletLedger.walletId, payer.wallet.id), eq(walletLedger.state, 'reserved')));
      return { walletId: payer.wallet.id, ledgerId: row!.id };
    };
    it('a charge not yet committed when the sums are made again is summed with them', async () => {
      const { walletId, ledgerId } = await pendingOnANewDay();
      const client = await pool().connect();
      try {
        await client.query('BEGIN');
        await client.query(q.chargeStatement.text, [ledgerId]);
        const summed = q.recentUse(t.database.db, walletId, '2026-12-15');
        await waitingForLocks(1);
        await client.query('COMMIT');
        expect(await summed).toEqual({ basic: 1, advance: 2, extraAdvance: 0 });
      } finally {
        // Dropped, not returned to the pool: a failure above may have left its transaction open.
        client.release(true);
      }
      expect(await usageMismatches(t.database.db)).toEqual([]);
    });

    it('a charge that comes while the sums are being made adds itself to them', async () => {
      const { walletId, ledgerId } = await pendingOnANewDay();
      const client = await pool().connect();
      try {
        // The wallet is held (as by a renewal) while the sums are asked for, then the charge comes: in that order.
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE', [walletId]);
        const summed = q.recentUse(t.database.db, walletId, '2026-12-15');
        await waitingForLocks(1);
        const charged = q.chargeReservation(t.database.db, ledgerId);
        await waitingForLocks(2);
        await client.query('COMMIT');
        expect(await summed).toEqual({ basic: 0, advance: 2, extraAdvance: 0 });
        await charged;
      } finally {
        // Dropped, not returned to the pool: a failure above may have left its transaction open.
        client.release(true);
      }
      expect(await q.recentUse(t.database.db, walletId, '2026-12-15')).toEqual({
        basic: 1,
        advance: 2,
        extraAdvance: 0,
      });
      expect(await usageMismatches(t.database.db)).toEqual([]);
    });
  },
);

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('the session statements on PostgreSQL', () => {
  // The paying wallet is looked up by key from the session's user (a lateral lookup), never by hashing the wallets:
  // a hash table built on every request over a table that grows with the accounts. (Whether a table is scanned or
  // read by index is the planner's call with the statistics it has: a small table is scanned.) The reservations'
  // "hashed SubPlan" is not such a table: it holds the caller's own memberships, read by key.
  it('join no table by hashing it, in the generic plan a prepared statement ends up with', async () => {
    const plans = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
      const found: string[] = [];
      for (const [i, s] of q.SESSION_STATEMENTS.entries()) {
        const name = `plan_check_${i}`;
        const count = Math.max(...[...s.text.matchAll(/\$(\d)/g)].map((m) => Number(m[1])));
        const values = ["'h'", count === 4 ? '1' : "'2026-10-24T00:00:00Z'", "'chat'", "'2026-11-23T12:00:00Z'"];
        await tx.execute(sql.raw(`PREPARE ${name} AS ${s.text}`));
        try {
          const result = (await tx.execute(
            sql.raw(`EXPLAIN EXECUTE ${name}(${values.slice(0, count).join(', ')})`),
          )) as unknown as { rows: { 'QUERY PLAN': string }[] };
          found.push(`${s.name}:\n${result.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        } finally {
          await tx.execute(sql.raw(`DEALLOCATE ${name}`));
        }
      }
      return found;
    });
    expect(plans).toHaveLength(5);
    for (const plan of plans) expect(plan).not.toMatch(/Hash/);
  });
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('the ledger’s connections on PostgreSQL', () => {
  it('do not wait for the disk at commit; every other statement does', async () => {
    const setting = async (db: typeof t.database.db) =>
      ((await db.execute(sql`SHOW synchronous_commit`)) as unknown as { rows: { synchronous_commit: string }[] })
        .rows[0]!.synchronous_commit;
    expect(await setting(t.database.ledger)).toBe('off');
    expect(await setting(t.database.db)).toBe('on');
  });
});
