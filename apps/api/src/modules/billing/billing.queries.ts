import { sql } from 'drizzle-orm';
import type { Tier } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { run, statement } from '../../db/prepared.js';
import { SESSION_WITH_USER_COLUMNS, toSessionWithUser, type SessionWithUser } from '../accounts/index.js';

/** Column names per tier; never built from user input. */
const COLUMNS: Record<Tier, { credit: string; use: string }> = {
  basic: { credit: 'basic_credit', use: 'basic_use' },
  advance: { credit: 'advance_credit', use: 'advance_use' },
  extraAdvance: { credit: 'extra_advance_credit', use: 'extra_advance_use' },
};

/** One statement per tier: column names are part of a statement's text. */
const perTier = <T>(make: (tier: Tier, c: { credit: string; use: string }) => T) =>
  Object.fromEntries((Object.keys(COLUMNS) as Tier[]).map((tier) => [tier, make(tier, COLUMNS[tier])])) as Record<
    Tier,
    T
  >;

/** The UPDATE … INSERT that takes `$2` credits from user `$1`'s tier and records it as reserved. */
const takeAndRecord = (tier: Tier, c: { credit: string; use: string }, userId: string) => `
    taken AS (
      UPDATE users
         SET ${c.credit} = ${c.credit} - $2::int, ${c.use} = ${c.use} + $2::int
       WHERE id = ${userId} AND ${c.credit} >= $2::int
   RETURNING id
    ), ledger AS (
      INSERT INTO credit_ledger (user_id, tier, amount, feature)
      SELECT id, '${tier}', $2::int, $3 FROM taken
   RETURNING id
    )`;

const reserveStatements = perTier((tier, c) =>
  statement<{ id: string }>(`reserve_${tier}`, `WITH ${takeAndRecord(tier, c, '$1::uuid')} SELECT id FROM ledger`),
);

/**
 * Takes `amount` credits and records the reservation in ONE statement: the UPDATE only matches while the balance
 * covers it, so no number of concurrent requests can spend more than the balance. Returns the ledger id, or null.
 */
export async function reserveCredits(db: Db, userId: string, tier: Tier, amount: number, feature: string) {
  const [row] = await run(db, reserveStatements[tier], [userId, amount, feature]);
  return row?.id ?? null;
}

const sessionReserveStatements = perTier((tier, c) =>
  statement<Record<string, unknown> & { ledgerId: string | null }>(
    `session_reserve_${tier}`,
    `WITH s AS (
      SELECT ${SESSION_WITH_USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1
    ), ${takeAndRecord(tier, c, `(SELECT "s.userId" FROM s WHERE "s.revokedAt" IS NULL AND date_trunc('milliseconds', "s.expiresAt") > $4::timestamptz)`)}
    SELECT s.*, (SELECT id FROM ledger) AS "ledgerId" FROM s`,
  ),
);

/**
 * The session of `tokenHash` with its user, and, if that session is live at `now` (not revoked, not expired), a
 * reservation of `amount` credits for that user, all in one statement: a request that needs both makes one round
 * trip. The user row is as it was before the reservation. `ledgerId` is null when nothing was reserved (no live
 * session, or not enough credits).
 */
export async function reserveForSession(
  db: Db,
  tokenHash: string,
  tier: Tier,
  amount: number,
  feature: string,
  now: Date,
): Promise<{ found: SessionWithUser | undefined; ledgerId: string | null }> {
  const [row] = await run(db, sessionReserveStatements[tier], [tokenHash, amount, feature, now]);
  if (!row) return { found: undefined, ledgerId: null };
  const { ledgerId, ...rest } = row;
  return { found: toSessionWithUser(rest), ledgerId };
}

const chargeStatement = statement(
  'charge_reservation',
  `UPDATE credit_ledger SET state = 'charged', settled_at = now() WHERE id = $1::uuid AND state = 'reserved'`,
);

/** Charged: the reservation stands. Only a reservation still pending changes state. */
export async function chargeReservation(db: Db, ledgerId: string) {
  await run(db, chargeStatement, [ledgerId]);
}

const giveBack = (pick: 'credit' | 'use', op: '+' | '-') =>
  (Object.keys(COLUMNS) as Tier[])
    .map(
      (tier) =>
        `${COLUMNS[tier][pick]} = ${COLUMNS[tier][pick]} ${op} CASE WHEN l.tier = '${tier}' THEN l.amount ELSE 0 END`,
    )
    .join(', ');

const refundStatement = statement(
  'refund_reservation',
  `WITH l AS (
     UPDATE credit_ledger SET state = 'refunded', settled_at = now()
      WHERE id = $1::uuid AND state = 'reserved'
  RETURNING user_id, tier, amount
   )
   UPDATE users SET ${giveBack('credit', '+')}, ${giveBack('use', '-')} FROM l WHERE users.id = l.user_id`,
);

/** Refunded: credits and usage go back, once, in one statement. */
export async function refundReservation(db: Db, ledgerId: string) {
  await run(db, refundStatement, [ledgerId]);
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
