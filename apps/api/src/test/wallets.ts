import type { Credits } from '@parley/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users, wallets, walletLedger } from '../db/schema/index.js';

/**
 * A person's wallet, read from the database: balances, and credits used (charged) over the last 30 days by model
 * tier, from the ledger.
 */
export async function walletOf(db: Db, email: string) {
  const [row] = await db
    .select({ wallet: wallets })
    .from(wallets)
    .innerJoin(users, eq(users.id, wallets.userId))
    .where(eq(users.email, email));
  if (!row) throw new Error(`no wallet for ${email}`);
  const w = row.wallet;
  const use = (await db.execute(sql`
    SELECT tier, sum(-amount)::int AS used FROM wallet_ledger
     WHERE wallet_id = ${w.id} AND kind = 'reserve' AND state = 'charged' AND created_at > now() - interval '30 days'
     GROUP BY tier`)) as unknown as { rows: { tier: string; used: number }[] };
  const used = (tier: string) => use.rows.find((r) => r.tier === tier)?.used ?? 0;
  return {
    id: w.id,
    dailyCredit: w.dailyCredit,
    basicCredit: w.basicCredit,
    advanceCredit: w.advanceCredit,
    extraAdvanceCredit: w.extraAdvanceCredit,
    basicUse: used('basic'),
    advanceUse: used('advance'),
    extraAdvanceUse: used('extraAdvance'),
  };
}

const COLUMNS = {
  dailyCredit: ['daily_credit', 'daily'],
  basicCredit: ['basic_credit', 'basic'],
  advanceCredit: ['advance_credit', 'advance'],
  extraAdvanceCredit: ['extra_advance_credit', 'extraAdvance'],
} as const;

/** Sets balances the way an administrator would: each change an `adjust` row, so a balance still equals its ledger. */
export async function setCredits(db: Db, email: string, patch: Partial<Credits>) {
  const wallet = await walletOf(db, email);
  for (const [key, value] of Object.entries(patch) as [keyof Credits, number][]) {
    const [column, balance] = COLUMNS[key];
    const change = value - wallet[key];
    if (change === 0) continue;
    await db.execute(sql`UPDATE wallets SET ${sql.raw(column)} = ${value} WHERE id = ${wallet.id}`);
    await db.insert(walletLedger).values({ walletId: wallet.id, balance, amount: change, kind: 'adjust' });
  }
}

/** Every wallet's balances against the sums of its ledger: empty when each balance equals its ledger. */
export async function ledgerMismatches(db: Db) {
  const result = (await db.execute(sql`
    SELECT w.id, b.balance, b.held, coalesce(sum(l.amount), 0)::int AS ledger
      FROM wallets w
     CROSS JOIN LATERAL (VALUES ('daily', w.daily_credit), ('basic', w.basic_credit),
                                ('advance', w.advance_credit), ('extraAdvance', w.extra_advance_credit)) AS b(balance, held)
      LEFT JOIN wallet_ledger l ON l.wallet_id = w.id AND l.balance = b.balance
     GROUP BY w.id, b.balance, b.held
    HAVING b.held <> coalesce(sum(l.amount), 0)`)) as unknown as {
    rows: { id: string; balance: string; held: number; ledger: number }[];
  };
  return result.rows;
}

/** Records `count` charged calls on `tier` models paid from that tier's credits, as metering would. */
export async function recordUse(
  db: Db,
  email: string,
  tier: 'basic' | 'advance' | 'extraAdvance',
  count: number,
  at = new Date(),
) {
  const wallet = await walletOf(db, email);
  const column = COLUMNS[`${tier}Credit` as keyof typeof COLUMNS][0];
  await db.execute(sql`UPDATE wallets SET ${sql.raw(column)} = ${sql.raw(column)} - ${count} WHERE id = ${wallet.id}`);
  for (let i = 0; i < count; i++) {
    await db.insert(walletLedger).values({
      walletId: wallet.id,
      balance: tier,
      tier,
      amount: -1,
      kind: 'reserve',
      state: 'charged',
      feature: 'chat',
      createdAt: at,
    });
  }
  // As the charge statement writes them: the hour's use, the same in the hour's UTC day, and in the wallet's kept
  // 30-day sums when that day is one of theirs.
  const recent = { basic: 'recent_basic', advance: 'recent_advance', extraAdvance: 'recent_extra_advance' }[tier];
  await db.execute(sql`
    UPDATE wallets SET ${sql.raw(recent)} = ${sql.raw(recent)} + ${count}
     WHERE id = ${wallet.id}
       AND (date_trunc('hour', ${at}::timestamptz) AT TIME ZONE 'UTC')::date BETWEEN recent_day - 29 AND recent_day`);
  await db.execute(sql`
    INSERT INTO wallet_usage (wallet_id, hour, tier, used) VALUES (${wallet.id}, date_trunc('hour', ${at}::timestamptz), ${tier}, ${count})
    ON CONFLICT (wallet_id, hour, tier) DO UPDATE SET used = wallet_usage.used + excluded.used`);
  await db.execute(sql`
    INSERT INTO wallet_usage_days (wallet_id, day, tier, used)
    VALUES (${wallet.id}, (date_trunc('hour', ${at}::timestamptz) AT TIME ZONE 'UTC')::date, ${tier}, ${count})
    ON CONFLICT (wallet_id, day, tier) DO UPDATE SET used = wallet_usage_days.used + excluded.used`);
}

/**
 * Use by hour and tier as wallet_usage holds it, against the charged reservations of the ledger; by UTC day as
 * wallet_usage_days holds it, against those hours; and each wallet's kept 30-day sums, against those days: empty when
 * all agree.
 */
export async function usageMismatches(db: Db) {
  const result = (await db.execute(sql`
    WITH ledger AS (
      SELECT wallet_id, date_trunc('hour', created_at) AS hour, tier, sum(-amount)::int AS used
        FROM wallet_ledger WHERE kind = 'reserve' AND state = 'charged' GROUP BY 1, 2, 3
    )
    SELECT coalesce(l.wallet_id, u.wallet_id) AS wallet_id, coalesce(l.hour, u.hour) AS hour,
           l.used AS ledger, u.used AS usage
      FROM ledger l FULL JOIN wallet_usage u ON u.wallet_id = l.wallet_id AND u.hour = l.hour AND u.tier = l.tier
     WHERE l.used IS DISTINCT FROM u.used`)) as unknown as { rows: unknown[] };
  return [...result.rows, ...(await dayMismatches(db)), ...(await keptMismatches(db))];
}

/** Use by UTC day and tier as wallet_usage_days holds it, against wallet_usage's hours of that day: empty when equal. */
async function dayMismatches(db: Db) {
  const result = (await db.execute(sql`
    WITH hours AS (
      SELECT wallet_id, (hour AT TIME ZONE 'UTC')::date AS day, tier, sum(used)::int AS used
        FROM wallet_usage GROUP BY 1, 2, 3
    )
    SELECT coalesce(h.wallet_id, d.wallet_id) AS wallet_id, coalesce(h.day, d.day)::text AS day,
           h.used AS hours, d.used AS days
      FROM hours h FULL JOIN wallet_usage_days d ON d.wallet_id = h.wallet_id AND d.day = h.day AND d.tier = h.tier
     WHERE h.used IS DISTINCT FROM d.used`)) as unknown as { rows: unknown[] };
  return result.rows;
}

/** The 30-day sums kept on each wallet (for the UTC day `recent_day`), against wallet_usage_days: empty when equal. */
async function keptMismatches(db: Db) {
  const result = (await db.execute(sql`
    SELECT w.id AS wallet_id, w.recent_day::text AS day,
           w.recent_basic AS basic, w.recent_advance AS advance, w.recent_extra_advance AS "extraAdvance", s.*
      FROM wallets w
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(d.used) FILTER (WHERE d.tier = 'basic'), 0)::int AS "daysBasic",
               coalesce(sum(d.used) FILTER (WHERE d.tier = 'advance'), 0)::int AS "daysAdvance",
               coalesce(sum(d.used) FILTER (WHERE d.tier = 'extraAdvance'), 0)::int AS "daysExtraAdvance"
          FROM wallet_usage_days d WHERE d.wallet_id = w.id AND d.day BETWEEN w.recent_day - 29 AND w.recent_day
      ) s
     WHERE w.recent_day IS NOT NULL
       AND (w.recent_basic, w.recent_advance, w.recent_extra_advance)
           IS DISTINCT FROM (s."daysBasic", s."daysAdvance", s."daysExtraAdvance")`)) as unknown as { rows: unknown[] };
  return result.rows;
}
