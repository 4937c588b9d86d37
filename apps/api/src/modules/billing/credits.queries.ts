import { sql } from 'drizzle-orm';
import type { Tier } from '@parley/contract';
import type { Db } from '../../db/client.js';

/** Column names per tier; never built from user input. */
const COLUMNS: Record<Tier, { credit: string; use: string }> = {
  basic: { credit: 'basic_credit', use: 'basic_use' },
  advance: { credit: 'advance_credit', use: 'advance_use' },
  extraAdvance: { credit: 'extra_advance_credit', use: 'extra_advance_use' },
};

/**
 * Takes `amount` credits and records the reservation in ONE statement: the UPDATE only matches while the balance
 * covers it, so no number of concurrent requests can spend more than the balance. Returns the ledger id, or null.
 */
export async function reserveCredits(db: Db, userId: string, tier: Tier, amount: number, feature: string) {
  const c = COLUMNS[tier];
  const result = (await db.execute(sql`
    WITH taken AS (
      UPDATE users
         SET ${sql.raw(c.credit)} = ${sql.raw(c.credit)} - ${amount},
             ${sql.raw(c.use)} = ${sql.raw(c.use)} + ${amount}
       WHERE id = ${userId} AND ${sql.raw(c.credit)} >= ${amount}
   RETURNING id
    )
    INSERT INTO credit_ledger (user_id, tier, amount, feature)
    SELECT id, ${tier}, ${amount}, ${feature} FROM taken
    RETURNING id`)) as unknown as { rows: { id: string }[] };
  // node-postgres and PGlite both answer { rows }.
  return result.rows[0]?.id ?? null;
}

/** Charged: the reservation stands. Only a reservation still pending changes state. */
export async function chargeReservation(db: Db, ledgerId: string) {
  await db.execute(
    sql`UPDATE credit_ledger SET state = 'charged', settled_at = now() WHERE id = ${ledgerId} AND state = 'reserved'`,
  );
}

/** Refunded: credits and usage go back, once, in one statement. */
export async function refundReservation(db: Db, ledgerId: string) {
  const cases = (pick: 'credit' | 'use', op: '+' | '-') =>
    sql.raw(
      (Object.keys(COLUMNS) as Tier[])
        .map(
          (tier) =>
            `${COLUMNS[tier][pick]} = ${COLUMNS[tier][pick]} ${op} CASE WHEN l.tier = '${tier}' THEN l.amount ELSE 0 END`,
        )
        .join(', '),
    );
  await db.execute(sql`
    WITH l AS (
      UPDATE credit_ledger SET state = 'refunded', settled_at = now()
       WHERE id = ${ledgerId} AND state = 'reserved'
   RETURNING user_id, tier, amount
    )
    UPDATE users SET ${cases('credit', '+')}, ${cases('use', '-')}
      FROM l WHERE users.id = l.user_id`);
}

/**
 * Gives back every reservation still pending after `olderThanSeconds` (a process that stopped between reserving and
 * settling), credits and usage per user, in one statement. Returns how many reservations were refunded.
 */
export async function refundStaleReservations(db: Db, olderThanSeconds: number) {
  const sums = sql.raw(
    (Object.keys(COLUMNS) as Tier[])
      .map((tier) => `sum(CASE WHEN tier = '${tier}' THEN amount ELSE 0 END)::int AS ${COLUMNS[tier].credit}`)
      .join(', '),
  );
  const restore = sql.raw(
    (Object.keys(COLUMNS) as Tier[])
      .map(
        (tier) =>
          `${COLUMNS[tier].credit} = users.${COLUMNS[tier].credit} + s.${COLUMNS[tier].credit}, ` +
          `${COLUMNS[tier].use} = users.${COLUMNS[tier].use} - s.${COLUMNS[tier].credit}`,
      )
      .join(', '),
  );
  const result = (await db.execute(sql`
    WITH l AS (
      UPDATE credit_ledger SET state = 'refunded', settled_at = now()
       WHERE state = 'reserved' AND created_at < now() - make_interval(secs => ${olderThanSeconds})
   RETURNING user_id, tier, amount
    ), s AS (
      SELECT user_id, count(*)::int AS n, ${sums} FROM l GROUP BY user_id
    ), u AS (
      UPDATE users SET ${restore} FROM s WHERE users.id = s.user_id RETURNING s.n
    )
    SELECT coalesce(sum(n), 0)::int AS refunded FROM u`)) as unknown as { rows: { refunded: number }[] };
  return result.rows[0]?.refunded ?? 0;
}
