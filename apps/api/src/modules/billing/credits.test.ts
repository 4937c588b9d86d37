import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, users } from '../../db/schema/index.js';
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
