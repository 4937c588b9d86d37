import type { Credits, PlanId } from '@parley/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { dateLiteral, SUMS_BY_TIER, usedInLast30Days } from './billing.queries.js';

export type WalletSummaryRow = {
  userId: string;
  organizationId: string | null;
  id: string;
  plan: PlanId;
  seats: number;
  dailyCredit: number;
  basicCredit: number;
  advanceCredit: number;
  extraAdvanceCredit: number;
  dailyRenewsAt: Date;
  monthlyRenewsAt: Date | null;
  basicUse: number;
  advanceUse: number;
  extraAdvanceUse: number;
};

/**
 * The wallets of these people with what each used over the 30 UTC days up to `day` (YYYY-MM-DD) by model tier, in one
 * statement.
 */
export async function walletSummaries(db: Db, userIds: string[], day: string) {
  if (!userIds.length) return [];
  const result = (await db.execute(sql`
    SELECT w.user_id AS "userId", w.organization_id AS "organizationId", w.id, w.plan, w.seats, w.daily_credit AS "dailyCredit", w.basic_credit AS "basicCredit",
           w.advance_credit AS "advanceCredit", w.extra_advance_credit AS "extraAdvanceCredit",
           w.daily_renews_at AS "dailyRenewsAt", w.monthly_renews_at AS "monthlyRenewsAt",
           s.basic AS "basicUse", s.advance AS "advanceUse", s."extraAdvance" AS "extraAdvanceUse"
      FROM wallets w
      LEFT JOIN LATERAL (
        SELECT ${sql.raw(SUMS_BY_TIER)} FROM ${sql.raw(usedInLast30Days('w.id', dateLiteral(day)))} u
      ) s ON true
     WHERE w.user_id = ANY(${`{${userIds.join(',')}}`}::uuid[])`)) as unknown as { rows: WalletSummaryRow[] };
  // Drivers differ on timestamps read through execute (Date or string).
  return result.rows.map((r) => ({
    ...r,
    dailyRenewsAt: new Date(r.dailyRenewsAt),
    monthlyRenewsAt: r.monthlyRenewsAt === null ? null : new Date(r.monthlyRenewsAt),
  }));
}

/**
 * Sets a person's four balances to `to`, in one statement under the wallet's row lock: each balance that changes gets
 * an `adjust` ledger row for the difference from the balance it had at that instant, so a spend that committed just
 * before is counted and one that comes after spends from the new value — none is lost, and each balance still equals
 * the sum of its ledger. Returns the balances just before, or undefined when the person has no wallet.
 */
export async function setBalances(tx: Tx, userId: string, to: Credits) {
  const result = (await tx.execute(sql`
    WITH cur AS (
      SELECT id, user_id, daily_credit, basic_credit, advance_credit, extra_advance_credit
        FROM wallets WHERE user_id = ${userId}::uuid FOR UPDATE
    ), t AS (
      SELECT ${to.dailyCredit}::int AS daily, ${to.basicCredit}::int AS basic, ${to.advanceCredit}::int AS advance,
             ${to.extraAdvanceCredit}::int AS extra
    ), changed AS (
      UPDATE wallets w SET daily_credit = t.daily, basic_credit = t.basic, advance_credit = t.advance,
             extra_advance_credit = t.extra, updated_at = now()
        FROM cur, t WHERE w.id = cur.id
    ), logged AS (
      INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, feature)
      SELECT cur.id, cur.user_id, g.b, g.n, 'adjust', 'admin' FROM cur CROSS JOIN t CROSS JOIN LATERAL (VALUES
        ('daily', t.daily - cur.daily_credit), ('basic', t.basic - cur.basic_credit),
        ('advance', t.advance - cur.advance_credit), ('extraAdvance', t.extra - cur.extra_advance_credit)) AS g(b, n)
       WHERE g.n <> 0
    )
    SELECT daily_credit AS "dailyCredit", basic_credit AS "basicCredit", advance_credit AS "advanceCredit",
           extra_advance_credit AS "extraAdvanceCredit" FROM cur`)) as unknown as { rows: Credits[] };
  return result.rows[0];
}
