import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, sessions, users } from '../../db/schema/index.js';
import { hashSecret } from '../../lib/crypto.js';
import { createTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const balance = async (id: string) => {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return { basicCredit: row!.basicCredit, basicUse: row!.basicUse, advanceCredit: row!.advanceCredit };
};

describe('reservations left pending', () => {
  it('are refunded once they are older than any request can last; fresh and settled ones are left alone', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const [rowA] = await t.database.db.select().from(users).where(eq(users.email, a.email));
    const [rowB] = await t.database.db.select().from(users).where(eq(users.email, b.email));
    const credits = t.app.services.credits;
    const start = { a: await balance(rowA!.id), b: await balance(rowB!.id) };

    // A process stopped mid-request: two of a's reservations and one of b's stay pending, an hour old.
    await credits.reserve(rowA!.id, 'basic', 'chat', { metered: true });
    await credits.reserve(rowA!.id, 'advance', 'chat', { metered: true });
    await credits.reserve(rowB!.id, 'basic', 'chat', { metered: true });
    await t.database.db.execute(sql`UPDATE credit_ledger SET created_at = now() - interval '1 hour'`);
    // Meanwhile: one charged an hour ago, one still running.
    const charged = await credits.reserve(rowA!.id, 'basic', 'chat', { metered: true });
    await charged.charge();
    await t.database.db.execute(
      sql`UPDATE credit_ledger SET created_at = now() - interval '1 hour' WHERE state = 'charged'`,
    );
    const running = await credits.reserve(rowB!.id, 'basic', 'chat', { metered: true });

    expect(await credits.sweepStale(15 * 60)).toBe(3);
    expect(await balance(rowA!.id)).toEqual({
      basicCredit: start.a.basicCredit - 1, // the charged one
      basicUse: start.a.basicUse + 1,
      advanceCredit: start.a.advanceCredit,
    });
    expect(await balance(rowB!.id)).toEqual({
      basicCredit: start.b.basicCredit - 1, // the one still running
      basicUse: start.b.basicUse + 1,
      advanceCredit: start.b.advanceCredit,
    });
    const pending = await t.database.db.select().from(creditLedger).where(eq(creditLedger.state, 'reserved'));
    expect(pending.map((l) => l.userId)).toEqual([rowB!.id]);

    // Nothing twice: a second sweep finds nothing, and the running request still settles normally.
    expect(await credits.sweepStale(15 * 60)).toBe(0);
    await running.refund();
    expect(await balance(rowB!.id)).toEqual(start.b);
  });
});

describe('a reservation made with the session check', () => {
  it('reserves only for a live session, and only what the balance covers', async () => {
    const a = await t.signUp();
    const [row] = await t.database.db.select().from(users).where(eq(users.email, a.email));
    const id = row!.id;
    const credits = t.app.services.credits;
    const tokenHash = hashSecret(a.token);
    const start = await balance(id);

    // Live: the session and its user come back with the credit taken.
    const live = await credits.reserveForSession(tokenHash, 'basic', 'chat', new Date());
    expect(live.found?.user.id).toBe(id);
    expect(live.found?.session.tokenHash).toBe(tokenHash);
    expect(live.reservation).not.toBeNull();
    expect((await balance(id)).basicCredit).toBe(start.basicCredit - 1);
    await live.reservation!.refund();
    expect(await balance(id)).toEqual(start);

    // Past its expiry (as of the time given), or unknown: found or not, nothing is taken.
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    const later = new Date(session!.expiresAt.getTime() + 1);
    const expired = await credits.reserveForSession(tokenHash, 'basic', 'chat', later);
    expect(expired.found?.user.id).toBe(id);
    expect(expired.reservation).toBeNull();
    expect(await credits.reserveForSession(hashSecret('no-such-token'), 'basic', 'chat', new Date())).toEqual({
      found: undefined,
      reservation: null,
    });

    // Revoked: nothing taken either.
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
    expect((await credits.reserveForSession(tokenHash, 'basic', 'chat', new Date())).reservation).toBeNull();
    await t.database.db.update(sessions).set({ revokedAt: null }).where(eq(sessions.tokenHash, tokenHash));

    // Not enough credits in the tier asked for: the session still comes back, without a reservation.
    await t.database.db.update(users).set({ advanceCredit: 0 }).where(eq(users.id, id));
    const broke = await credits.reserveForSession(tokenHash, 'advance', 'chat', new Date());
    expect(broke.found?.user.id).toBe(id);
    expect(broke.reservation).toBeNull();
    expect((await balance(id)).advanceCredit).toBe(0);
    const pending = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
    expect(pending.map((l) => l.state)).toEqual(['refunded']);
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
