import { DAILY_CREDIT_TIERS, PAID_PLAN_IDS, type Allowance, type PlanId, type Tier } from '@parley/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { jsonOf, jsonReader, run, statement } from '../../db/prepared.js';
import { featureUses, wallets, type Balance } from '../../db/schema/index.js';
import { SESSION_AND_ACCOUNT, toSessionWithUser, type SessionWithUser } from '../accounts/index.js';
import { MEMBERSHIP_OF, type Membership } from '../organizations/index.js';

export type WalletRow = typeof wallets.$inferSelect;

/** Balance name → column, for statements whose text names a column (never built from input). */
const COLUMN: Record<Balance, string> = {
  daily: 'daily_credit',
  basic: 'basic_credit',
  advance: 'advance_credit',
  extraAdvance: 'extra_advance_credit',
};
const TIERS: Tier[] = ['basic', 'advance', 'extraAdvance'];
/** Each tier's column of the wallet's kept 30-day use (see `wallets.recentDay`). */
const RECENT_COLUMN: Record<Tier, string> = {
  basic: 'recent_basic',
  advance: 'recent_advance',
  extraAdvance: 'recent_extra_advance',
};

/** One statement per tier: column names are part of a statement's text. */
const perTier = <T>(make: (tier: Tier) => T) =>
  Object.fromEntries(TIERS.map((tier) => [tier, make(tier)])) as Record<Tier, T>;

/**
 * Takes `$2` credits from wallet `walletId` for a call on a `tier` model, and records the reservation, in one
 * statement. Daily credits pay first where they may (DAILY_CREDIT_TIERS), as many as there are, and the tier's own
 * the rest: a call of 2 credits with 1 daily credit left takes that one and 1 of the tier's. Each balance that pays
 * is a `reserve` row; when both do, the daily row is the reservation and names the tier's in `reservation_id`, so
 * that settling it finds both by primary key (RESERVATION_PARTS).
 * The row is locked while the split is made, and the UPDATE only matches while the balances cover it, so no number of
 * concurrent calls can spend more than there is. `$2` is the amount, `$3` the feature; who spends and when are given
 * as expressions.
 */
const takeAndRecord = (tier: Tier, walletId: string, userId: string, at: string) => {
  const fromDaily = DAILY_CREDIT_TIERS.includes(tier) ? 'least(greatest(daily_credit, 0), $2::int)' : '0';
  const month = `date_trunc('month', ${at} AT TIME ZONE 'UTC')::date`;
  const usedThisMonth = `CASE WHEN m.period = ${month} THEN m.used ELSE 0 END`;
  // A member of an organization spends from its wallet up to their monthly limit: their row is counted in the same
  // statement, only when the wallet covers the amount (the wallet's lock, taken first, orders concurrent spends).
  // Anyone else spends only from their own wallet: a request that chose the organization's wallet before its sender
  // left (or was removed) finds no member row and is refused, not let through without a limit.
  // A negative amount takes nothing; a balance below zero (only hand-edited data has one) counts as none, so that daily
  // credits that cover a call still pay for it.
  // A wallet whose daily renewal is due (its owner's midnight has passed, the renewal job has not come by yet) is not
  // spent from: its balances are about to change, and yesterday's daily credits must not send today's spending to a
  // paid balance. The caller renews it and asks again (see BillingService). Said in `covered`, not in the WHERE, so
  // that the row is always locked and read as it is once the lock is had: a renewal committed while this waited for
  // it counts (a condition in the WHERE is first tested on the statement's snapshot, and a row renewed meanwhile
  // would be passed over without waiting).
  return `
    cur AS (
      SELECT id, ${fromDaily} AS daily, daily_renews_at <= ${at} AS due,
             gen_random_uuid() AS reservation, gen_random_uuid() AS part,
             daily_renews_at > ${at} AND $2::int >= 0
               AND greatest(${COLUMN[tier]}, 0) >= $2::int - ${fromDaily} AS covered
        FROM wallets WHERE id = ${walletId} FOR UPDATE
    ), member AS (
      UPDATE wallet_members m SET used = ${usedThisMonth} + $2::int, period = ${month}
        FROM cur
       WHERE m.user_id = ${userId} AND m.wallet_id = cur.id AND cur.covered
         AND (m.monthly_limit IS NULL OR ${usedThisMonth} + $2::int <= m.monthly_limit)
   RETURNING m.user_id
    ), taken AS (
      UPDATE wallets w
         SET daily_credit = w.daily_credit - cur.daily,
             ${COLUMN[tier]} = w.${COLUMN[tier]} - ($2::int - cur.daily)
        FROM cur
       WHERE w.id = cur.id AND cur.covered
         AND (EXISTS (SELECT 1 FROM member)
              OR (w.user_id = ${userId}
                  AND NOT EXISTS (SELECT 1 FROM wallet_members m WHERE m.user_id = ${userId} AND m.wallet_id = cur.id)))
   RETURNING w.id, w.daily_renews_at, cur.daily, cur.reservation, cur.part
    ), ledger AS (
      INSERT INTO wallet_ledger (id, wallet_id, user_id, balance, tier, amount, kind, state, feature, created_at,
                                 reservation_id, daily_until)
      SELECT p.id, t.id, ${userId}, p.balance, '${tier}', -p.amount, 'reserve', 'reserved', $3, ${at}, p.part,
             CASE WHEN p.balance = 'daily' THEN t.daily_renews_at END
        FROM taken t
       CROSS JOIN LATERAL (VALUES
               ('daily', t.daily, t.reservation, CASE WHEN $2::int > t.daily THEN t.part END, t.daily > 0),
               ('${tier}', $2::int - t.daily, CASE WHEN t.daily = 0 THEN t.reservation ELSE t.part END, NULL::uuid,
                $2::int > t.daily OR t.daily = 0))
             AS p(balance, amount, id, part, kept)
       WHERE p.kept
    )`;
};

const reserveStatements = perTier((tier) =>
  statement<{ id: string | null; due: boolean | null }>(
    `reserve_${tier}`,
    `WITH ${takeAndRecord(tier, '$1::uuid', '$4::uuid', '$5::timestamptz')}
     SELECT (SELECT reservation FROM taken) AS id, (SELECT due FROM cur) AS due`,
  ),
);

/**
 * Reserves `amount` credits: `id` is the reservation's ledger id, or null when nothing was reserved — the balances
 * do not cover it, or (`due`) the wallet's daily renewal is due (see takeAndRecord).
 */
export async function reserveCredits(
  db: Db,
  walletId: string,
  userId: string,
  tier: Tier,
  amount: number,
  feature: string,
  now: Date,
) {
  const [row] = await run(db, reserveStatements[tier], [walletId, amount, feature, userId, now]);
  return { id: row?.id ?? null, due: row?.due === true };
}

/** What a request carries of the wallet that pays. */
const WALLET_KEYS = [
  'id',
  'userId',
  'organizationId',
  'plan',
  'seats',
  'dailyCredit',
  'basicCredit',
  'advanceCredit',
  'extraAdvanceCredit',
  'dailyRenewsAt',
  'monthlyRenewsAt',
] as const;
export type WalletRef = Pick<WalletRow, (typeof WALLET_KEYS)[number]>;
const readWallet = jsonReader<WalletRef>(wallets, WALLET_KEYS);

/**
 * The wallet that pays for user `u`: their organization's while they are a member of one (a `wallet_members` row),
 * else their own. Written as a lateral lookup by primary key so that every plan, generic ones included, reads it with
 * index scans: a join on the same condition was planned as a hash join over a scan of `wallets` (a hash table built
 * on every request, and a scan that grows with the table).
 */
const PAYING_WALLET = `LEFT JOIN LATERAL (
    SELECT * FROM wallets pw
     WHERE pw.id = coalesce((SELECT wm.wallet_id FROM wallet_members wm WHERE wm.user_id = u.id),
                            (SELECT ow.id FROM wallets ow WHERE ow.user_id = u.id))
  ) w ON true`;

/**
 * The session, its user, their organization and role there (null when none), and the wallet that pays (null when
 * the account has none yet), as JSON values.
 */
const sessionUserWallet = (more = '') => `SELECT ${SESSION_AND_ACCOUNT},
       CASE WHEN w.id IS NULL THEN NULL ELSE ${jsonOf(wallets, 'w', WALLET_KEYS)} END AS "wallet",
       ${MEMBERSHIP_OF('u')} AS "organization"${more}
  FROM sessions s JOIN users u ON u.id = s.user_id ${PAYING_WALLET}
 WHERE s.token_hash = $1`;

export type UseTotals = { basic: number; advance: number; extraAdvance: number };
export type SessionWithWallet = SessionWithUser & {
  wallet: WalletRef | null;
  organization: Membership | null;
  recentUse?: UseTotals;
};
type Found = { session: unknown; user: unknown; wallet: unknown; organization: unknown; use?: unknown };

// Built property by property, without object spread: on every request, spreads made V8 keep each request's objects
// through two young-generation collections (measured with bench/gc.ts; docs/benchmarks.md, 2026-11-29).
const toSessionWithWallet = (row: Found): SessionWithWallet => {
  const { session, user } = toSessionWithUser(row);
  const found: SessionWithWallet = {
    session,
    user,
    wallet: row.wallet ? readWallet(row.wallet as Record<string, unknown>) : null,
    organization: (row.organization as Membership | null) ?? null,
  };
  if (row.use) found.recentUse = row.use as UseTotals;
  return found;
};

const sessionWithWallet = statement<Found>('session_with_wallet', sessionUserWallet());

/** One statement per authenticated request: the session, its user and the wallet that pays. */
export async function findSessionWithWallet(db: Db, tokenHash: string): Promise<SessionWithWallet | undefined> {
  const [row] = await run(db, sessionWithWallet, [tokenHash]);
  return row ? toSessionWithWallet(row) : undefined;
}

/**
 * "Over the last 30 days" as a condition on a UTC day (SQL expressions): `dayColumn` is UTC day `day` or one of the 29
 * before it. The charge statement adds each charge to its UTC day (`wallet_usage_days`) and, when that day is in the
 * window of the wallet's kept sums (`wallets.recentDay`), to those; the sums are made again with the same condition.
 */
export const IN_LAST_30_DAYS = (dayColumn: string, day: string) => `${dayColumn} BETWEEN ${day} - 29 AND ${day}`;

/** The rows (tier, used) of wallet `wallet`'s use over the 30 UTC days up to `day` (SQL expressions; see above). */
export const usedInLast30Days = (wallet: string, day: string) => `(
    SELECT d.tier, d.used FROM wallet_usage_days d
     WHERE d.wallet_id = ${wallet} AND ${IN_LAST_30_DAYS('d.day', day)}
  )`;

/** A UTC day (YYYY-MM-DD, from the server's clock) as an SQL date literal; anything else is refused. */
export function dateLiteral(day: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `'${day}'::date`;
}

/** The sums by model tier (basic, advance, "extraAdvance"; 0 when none) of rows `u` (tier, used): usedInLast30Days. */
export const SUMS_BY_TIER = `coalesce(sum(u.used) FILTER (WHERE u.tier = 'basic'), 0)::int AS basic,
       coalesce(sum(u.used) FILTER (WHERE u.tier = 'advance'), 0)::int AS advance,
       coalesce(sum(u.used) FILTER (WHERE u.tier = 'extraAdvance'), 0)::int AS "extraAdvance"`;

/**
 * The session, its wallet, and as "use" the wallet's credits used over the 30 days up to UTC day `$2` (its kept sums,
 * see `wallets.recentDay`), or null when they were last summed for another day (see recentUse).
 */
const sessionWithWalletAndUse = statement<Found>(
  'session_with_wallet_and_use',
  sessionUserWallet(`,
       CASE WHEN w.recent_day = $2::date
            THEN json_build_object('basic', w.recent_basic, 'advance', w.recent_advance,
                                   'extraAdvance', w.recent_extra_advance) END AS "use"`),
);

/**
 * The session, its user, their wallet and its use over the 30 days up to `day` (YYYY-MM-DD, UTC) when kept for that
 * day, in one statement (for the profile).
 */
export async function findSessionWithWalletAndUse(db: Db, tokenHash: string, day: string) {
  const [row] = await run(db, sessionWithWalletAndUse, [tokenHash, day]);
  return row ? toSessionWithWallet(row) : undefined;
}

const RECENT_USE = `w.recent_basic AS basic, w.recent_advance AS advance, w.recent_extra_advance AS "extraAdvance"`;

const keptUseStatement = statement<UseTotals>(
  'recent_use',
  `SELECT ${RECENT_USE} FROM wallets w WHERE w.id = $1::uuid AND w.recent_day = $2::date`,
);

/**
 * The credits a wallet used over the 30 days up to UTC day `day` (YYYY-MM-DD; that day and the 29 before it), by model
 * tier: its kept sums, or, when they were kept for another day, the days summed again and kept. The wallet's row is
 * taken first (FOR NO KEY UPDATE: the lock the charge statement's update also needs), and the sums are made in the
 * next statement, which sees every charge committed before the lock was granted: a charge either commits before (and
 * its day is summed) or waits and adds itself to the new sums. A reader that waited for another's sums returns them.
 */
export async function recentUse(db: Db, walletId: string, day: string): Promise<UseTotals> {
  const [kept] = await run(db, keptUseStatement, [walletId, day]);
  if (kept) return kept;
  return db.transaction(async (tx) => {
    const held = (await tx.execute(sql`
      SELECT w.recent_day::text AS day, ${sql.raw(RECENT_USE)} FROM wallets w
       WHERE w.id = ${walletId}::uuid FOR NO KEY UPDATE`)) as unknown as {
      rows: (UseTotals & { day: string | null })[];
    };
    const [row] = held.rows;
    if (!row) return { basic: 0, advance: 0, extraAdvance: 0 };
    if (row.day === day) return { basic: row.basic, advance: row.advance, extraAdvance: row.extraAdvance };
    const summed = (await tx.execute(sql`
      UPDATE wallets w
         SET recent_day = ${day}::date,
             recent_basic = s.basic, recent_advance = s.advance, recent_extra_advance = s."extraAdvance"
        FROM (SELECT ${sql.raw(SUMS_BY_TIER)} FROM wallet_usage_days u
               WHERE u.wallet_id = ${walletId}::uuid AND ${sql.raw(IN_LAST_30_DAYS('u.day', dateLiteral(day)))}) s
       WHERE w.id = ${walletId}::uuid
   RETURNING ${sql.raw(RECENT_USE)}`)) as unknown as { rows: UseTotals[] };
    return summed.rows[0] ?? { basic: 0, advance: 0, extraAdvance: 0 };
  });
}

/** What a session's reservation statement returns (see `reserveForSession`), with `E`: what it does besides. */
export type SessionReserveRow = Omit<Found, 'wallet' | 'organization'> & {
  walletId: string | null;
  ledgerId: string | null;
  due: boolean | null;
};

/**
 * What a statement that checks a session and reserves a credit may do besides, in the same round trip (a chat turn
 * takes its conversation with it): CTEs of its own (`ctes`), which may read the session's row `s` (its user "uid",
 * and "live", true while the session is live at `$4`); a condition the reservation needs as well (`gate`: when it is
 * false nothing is reserved); and columns of its own (`columns`). Its values come after the reservation's, from `$5`.
 */
export type SessionReserveExtension = { ctes: string; gate: string; columns: string };

/** The session of `$1` and, while it is live at `$4` (and `also`'s gate holds), a reservation of `$2` credits. */
const sessionReserveText = (tier: Tier, also?: SessionReserveExtension) => {
  const payer = `(SELECT wid FROM s WHERE live${also ? ` AND ${also.gate}` : ''})`;
  return `WITH s AS (
       SELECT ${SESSION_AND_ACCOUNT}, s.user_id AS uid, w.id AS wid,
              s.revoked_at IS NULL AND date_trunc('milliseconds', s.expires_at) > $4::timestamptz AS live
         FROM sessions s JOIN users u ON u.id = s.user_id ${PAYING_WALLET}
        WHERE s.token_hash = $1
     ),${also ? ` ${also.ctes},` : ''}
      ${takeAndRecord(tier, payer, `(SELECT uid FROM s)`, '$4::timestamptz')}
    SELECT s.session, s.user, s.wid AS "walletId", (SELECT reservation FROM taken) AS "ledgerId",
           (SELECT due FROM cur) AS "due"${also ? `, ${also.columns}` : ''}
      FROM s`;
};

/** One statement per tier, named `name_<tier>`: a session's reservation that also does `also` (see above). */
export const sessionReserveWith = <E extends object>(name: string, also: SessionReserveExtension) =>
  perTier((tier) => statement<SessionReserveRow & E>(`${name}_${tier}`, sessionReserveText(tier, also)));

export type SessionReserveWith<E extends object> = ReturnType<typeof sessionReserveWith<E>>;

const sessionReserve = perTier((tier) =>
  statement<SessionReserveRow>(`session_reserve_${tier}`, sessionReserveText(tier)),
);

/** The statements every authenticated request runs one of (their plans are checked in billing.test.ts). */
export const SESSION_STATEMENTS = [sessionWithWallet, sessionWithWalletAndUse, ...Object.values(sessionReserve)];

/**
 * The session of `tokenHash` with its user, and, if that session is live at `now` (not revoked, not expired), a
 * reservation of `amount` credits from their wallet, all in one statement: a request that needs both makes one
 * round trip (the chat turn's hot path; the wallet itself is not read back). `ledgerId` is null when nothing was
 * reserved. With `also`, the statement is one of `sessionReserveWith` (its values follow), and its row is
 * returned as `row`.
 */
export async function reserveForSession<E extends object = object>(
  db: Db,
  tokenHash: string,
  tier: Tier,
  amount: number,
  feature: string,
  now: Date,
  also?: { statements: SessionReserveWith<E>; values: unknown[] },
): Promise<{
  found: SessionWithUser | undefined;
  walletId: string | null;
  ledgerId: string | null;
  due: boolean;
  row: (SessionReserveRow & E) | undefined;
}> {
  const values = [tokenHash, amount, feature, now, ...(also?.values ?? [])];
  const [row] = await run(db, also ? also.statements[tier] : sessionReserve[tier], values);
  if (!row) return { found: undefined, walletId: null, ledgerId: null, due: false, row: undefined };
  const found = toSessionWithUser(row);
  return {
    found,
    walletId: row.walletId,
    ledgerId: row.ledgerId,
    due: row.due === true,
    row: row as SessionReserveRow & E,
  };
}

/** The columns of a `reserve` row that settling it returns. */
const SETTLED = 'id, wallet_id, user_id, balance, tier, amount, feature, created_at, daily_until';

/**
 * Settles reservation `$1` (`set`: what changes), as a statement's first CTEs: its `reserve` row, then the tier's
 * part it names when two balances paid (see takeAndRecord), each found by primary key; `parts` returns both (SETTLED).
 * Only a reservation still pending changes.
 *
 * Both rows are locked first, in the order of their ids (`locked`, read whole before the first update), as the sweep
 * of stale reservations locks its rows: two statements that take the same rows in one order never deadlock, where
 * the daily part then the tier's, against the sweep's scan order, could.
 */
const settleParts = (set: string) => `
  locked AS (
    SELECT id FROM wallet_ledger
     WHERE id IN ($1::uuid, (SELECT reservation_id FROM wallet_ledger WHERE id = $1::uuid AND kind = 'reserve'))
       AND state = 'reserved'
     ORDER BY id
       FOR NO KEY UPDATE
  ), first_part AS (
    UPDATE wallet_ledger SET ${set}
     WHERE id = $1::uuid AND state = 'reserved' AND (SELECT count(*) FROM locked) > 0
    RETURNING reservation_id AS part, ${SETTLED}
  ), second_part AS (
    UPDATE wallet_ledger SET ${set}
     WHERE id = (SELECT part FROM first_part) AND kind = 'reserve' AND state = 'reserved'
    RETURNING ${SETTLED}
  ), parts AS (
    SELECT ${SETTLED} FROM first_part UNION ALL SELECT ${SETTLED} FROM second_part
  )`;

/**
 * Charges a reservation: its use is added to its hour and its UTC day, and to the wallet's kept 30-day sums when that
 * day is one of theirs. The wallet's row is updated (so locked) whatever the day: a concurrent re-summing (see
 * recentUse) either finishes first, and this adds itself to the new sums, or waits for this to commit, and sums it.
 */
export const chargeStatement = statement(
  'charge_reservation',
  `WITH ${settleParts(`state = 'charged', settled_at = now()`)}, l AS (
     SELECT wallet_id, date_trunc('hour', created_at) AS hour, tier, sum(-amount)::int AS used
       FROM parts GROUP BY 1, 2, 3
   ), by_hour AS (
     INSERT INTO wallet_usage (wallet_id, hour, tier, used) SELECT * FROM l
     ON CONFLICT (wallet_id, hour, tier) DO UPDATE SET used = wallet_usage.used + excluded.used
   ), kept AS (
     UPDATE wallets w SET ${TIERS.map(
       (tier) => `${RECENT_COLUMN[tier]} = w.${RECENT_COLUMN[tier]} + CASE WHEN l.tier = '${tier}'
         AND ${IN_LAST_30_DAYS(`(l.hour AT TIME ZONE 'UTC')::date`, 'w.recent_day')} THEN l.used ELSE 0 END`,
     ).join(', ')}
       FROM l WHERE w.id = l.wallet_id
   )
   INSERT INTO wallet_usage_days (wallet_id, day, tier, used)
   SELECT wallet_id, (hour AT TIME ZONE 'UTC')::date, tier, used FROM l
   ON CONFLICT (wallet_id, day, tier) DO UPDATE SET used = wallet_usage_days.used + excluded.used`,
);

/** Charged: the reservation stands, and counts as use. Only a reservation still pending changes state. */
export async function chargeReservation(db: Db, ledgerId: string) {
  await run(db, chargeStatement, [ledgerId]);
}

/**
 * Refunds the `reserve` rows that `settled` (CTEs ending with `l`, of the SETTLED columns) marks refunded: each gets a
 * refund row, and each wallet its credits back, in one statement. Returns how many rows were refunded (a reservation
 * two balances paid is two).
 *
 * Daily credits go back only to the day they were taken from: a daily part whose day has been renewed since (the
 * wallet's next renewal is no longer the `daily_until` it was taken before) is not given back, as the renewal already
 * set the day's credits to the allowance; the reservation is refunded all the same, with no refund row for that part.
 * The wallets are locked first (in the order of their ids, after the ledger rows, as a charge locks them), so that a
 * renewal committed meanwhile is seen.
 */
const refundWith = (settled: string) => `
  WITH ${settled},
  wal AS (
    SELECT id, daily_renews_at FROM wallets WHERE id IN (SELECT wallet_id FROM l) ORDER BY id FOR NO KEY UPDATE
  ),
  r AS (
    SELECT l.*, CASE WHEN l.balance = 'daily' AND l.daily_until IS DISTINCT FROM wal.daily_renews_at
                       AND l.daily_until IS NOT NULL THEN 0 ELSE -l.amount END AS back
      FROM l JOIN wal ON wal.id = l.wallet_id
  ),
  back AS (
    INSERT INTO wallet_ledger (wallet_id, user_id, balance, tier, amount, kind, feature, reservation_id)
    SELECT wallet_id, user_id, balance, tier, back, 'refund', feature, id FROM r WHERE back <> 0
  ),
  s AS (
    SELECT wallet_id, ${(Object.keys(COLUMN) as Balance[])
      .map((b) => `sum(CASE WHEN balance = '${b}' THEN back ELSE 0 END)::int AS ${COLUMN[b]}`)
      .join(', ')}
      FROM r GROUP BY wallet_id
  ),
  given AS (
    UPDATE wallets w SET ${(Object.keys(COLUMN) as Balance[])
      .map((b) => `${COLUMN[b]} = w.${COLUMN[b]} + s.${COLUMN[b]}`)
      .join(', ')}
      FROM s WHERE w.id = s.wallet_id
  ),
  member AS (
    UPDATE wallet_members m SET used = greatest(m.used - x.n, 0)
      FROM (SELECT wallet_id, user_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS period,
                   sum(-amount)::int AS n
              FROM l GROUP BY 1, 2, 3) x
     WHERE m.wallet_id = x.wallet_id AND m.user_id = x.user_id AND m.period = x.period
  )
  SELECT count(*)::int AS refunded FROM l`;

const refundStatement = statement<{ refunded: number }>(
  'refund_reservation',
  refundWith(`${settleParts(`state = 'refunded', settled_at = now()`)}, l AS (SELECT * FROM parts)`),
);

/** Refunded: the credits go back, once, with a refund row, in one statement. */
export async function refundReservation(db: Db, ledgerId: string) {
  await run(db, refundStatement, [ledgerId]);
}

const staleStatement = statement<{ refunded: number }>(
  'refund_stale_reservations',
  // Locked in the order of their ids, as settling locks a reservation's two rows (settleParts): a row is changed only
  // once `stale` has locked it.
  refundWith(`stale AS (
     SELECT id FROM wallet_ledger
      WHERE state = 'reserved' AND created_at < now() - make_interval(secs => $1::int)
      ORDER BY id
        FOR NO KEY UPDATE
  ), l AS (
     UPDATE wallet_ledger SET state = 'refunded', settled_at = now()
      WHERE id IN (SELECT id FROM stale) AND state = 'reserved'
  RETURNING ${SETTLED})`),
);

/**
 * Gives back every reservation still pending after `olderThanSeconds` (a process that stopped between reserving and
 * settling), in one statement. Returns how many `reserve` rows were refunded (a reservation two balances paid is two).
 */
export async function refundStaleReservations(db: Db, olderThanSeconds: number) {
  const rows = await run(db, staleStatement, [olderThanSeconds]);
  return rows[0]?.refunded ?? 0;
}

/** A wallet for a new account, holding its plan's allowance (each credit granted by a ledger row). */
export async function openWallet(
  db: Tx,
  values: { userId: string; plan: PlanId; allowance: Allowance; dailyRenewsAt: Date; monthlyRenewsAt: Date | null },
) {
  const a = values.allowance;
  const [wallet] = await db
    .insert(wallets)
    .values({
      userId: values.userId,
      plan: values.plan,
      dailyCredit: a.dailyCredit,
      basicCredit: a.basicCredit,
      advanceCredit: a.advanceCredit,
      extraAdvanceCredit: a.extraAdvanceCredit,
      dailyRenewsAt: values.dailyRenewsAt,
      monthlyRenewsAt: values.monthlyRenewsAt,
    })
    .onConflictDoNothing({ target: wallets.userId })
    .returning();
  if (!wallet) return null;
  const grants = (
    [
      ['daily', a.dailyCredit],
      ['basic', a.basicCredit],
      ['advance', a.advanceCredit],
      ['extraAdvance', a.extraAdvanceCredit],
    ] as const
  ).filter(([, amount]) => amount !== 0);
  if (grants.length) {
    await db.execute(sql`
      INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, feature)
      SELECT ${wallet.id}::uuid, ${values.userId}::uuid, b, n, 'grant', ${values.plan}
        FROM unnest(${`{${grants.map(([b]) => b).join(',')}}`}::text[], ${`{${grants.map(([, n]) => n).join(',')}}`}::int[]) AS g(b, n)`);
  }
  return wallet;
}

/** The paid plans, as an SQL list (a wallet on one of these is paid for by its subscription). */
const PAID_PLANS = PAID_PLAN_IDS.map((p) => `'${p}'`).join(', ');

/**
 * Raises each credit of a wallet to at least `allowance` (never lowers one), every raise a `grant` ledger row under
 * `feature`, and sets what `set` says (the plan; `cur` is the wallet before the change), in one statement.
 * `monthlyRenewsAt`, when given, is the next monthly top-up; without it, `set` says what becomes of it.
 */
export async function raiseToAllowance(
  db: Tx,
  walletId: string,
  allowance: Allowance,
  change: { set: SQL; feature: string; monthlyRenewsAt?: Date | null },
) {
  await db.execute(sql`
    WITH cur AS (
      SELECT id, user_id, plan, daily_credit, basic_credit, advance_credit, extra_advance_credit, monthly_renews_at
        FROM wallets WHERE id = ${walletId}::uuid FOR UPDATE
    ), raised AS (
      UPDATE wallets w SET ${change.set},
             daily_credit = greatest(cur.daily_credit, ${allowance.dailyCredit}::int),
             basic_credit = greatest(cur.basic_credit, ${allowance.basicCredit}::int),
             advance_credit = greatest(cur.advance_credit, ${allowance.advanceCredit}::int),
             extra_advance_credit = greatest(cur.extra_advance_credit, ${allowance.extraAdvanceCredit}::int),
             ${change.monthlyRenewsAt === undefined ? sql`` : sql`monthly_renews_at = ${change.monthlyRenewsAt},`}
             updated_at = now()
        FROM cur WHERE w.id = cur.id
    )
    INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, feature)
    SELECT cur.id, cur.user_id, g.b, g.n, 'grant', ${change.feature} FROM cur CROSS JOIN LATERAL (VALUES
      ('daily', ${allowance.dailyCredit}::int - cur.daily_credit),
      ('basic', ${allowance.basicCredit}::int - cur.basic_credit),
      ('advance', ${allowance.advanceCredit}::int - cur.advance_credit),
      ('extraAdvance', ${allowance.extraAdvanceCredit}::int - cur.extra_advance_credit)) AS g(b, n)
     WHERE g.n > 0`);
}

/**
 * Moves a wallet to base plan `plan` (a sign-up channel's: early bird, app deal): each credit is raised to at least
 * `allowance`, every raise a ledger row under `feature`, in one statement. A paid plan in force stays, and so do its
 * monthly top-ups (`monthlyRenewsAt`, the base plan's, would top up a paid plan outside what was paid, or drop the
 * months a yearly plan was paid for): `plan` becomes what the wallet returns to when it ends, with its own renewal
 * from then on.
 */
export async function changePlan(
  db: Tx,
  walletId: string,
  plan: PlanId,
  allowance: Allowance,
  monthlyRenewsAt: Date | null,
  feature: string = plan,
) {
  await raiseToAllowance(db, walletId, allowance, {
    set: sql`plan = CASE WHEN cur.plan IN (${sql.raw(PAID_PLANS)}) THEN cur.plan ELSE ${plan} END,
             base_plan = ${plan},
             monthly_renews_at = CASE WHEN cur.plan IN (${sql.raw(PAID_PLANS)}) THEN cur.monthly_renews_at
                                      ELSE ${monthlyRenewsAt}::timestamptz END`,
    feature,
  });
}

/**
 * What wallet `walletId` holds for a call on a `tier` model, when `userId` spends from it alone: daily credits where they
 * pay (DAILY_CREDIT_TIERS) plus the tier's own. Null for a wallet the person shares (an organization's: their limit
 * counts too). Read after a refused reservation, to say what there was.
 */
export async function availableFor(db: Db, walletId: string, userId: string, tier: Tier) {
  const [row] = await db.select().from(wallets).where(eq(wallets.id, walletId)).limit(1);
  if (!row || row.userId !== userId || row.organizationId !== null) return null;
  const own = { basic: row.basicCredit, advance: row.advanceCredit, extraAdvance: row.extraAdvanceCredit }[tier];
  return Math.max(0, own) + (DAILY_CREDIT_TIERS.includes(tier) ? Math.max(0, row.dailyCredit) : 0);
}

export async function findWallet(db: Tx, id: string) {
  const [row] = await db.select().from(wallets).where(eq(wallets.id, id));
  return row;
}

export async function findWalletByUser(db: Tx, userId: string) {
  const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId)).limit(1);
  return row;
}

/**
 * Wallets whose daily credits are due (their owner's midnight has passed; UTC's for a wallet without an owner),
 * locked for this transaction. The job skips one being renewed meanwhile (locked by another instance). With
 * `walletId`, that wallet only, waiting for whoever holds it: once they are done it is found only if still due, and
 * the caller, asking again, sees what they committed. Every due wallet is found: one the job could not renew would not
 * be spent from (see takeAndRecord).
 */
export async function dueForDailyRenewal(db: Tx, now: Date, limit: number, walletId?: string) {
  const result = (await db.execute(sql`
    SELECT w.id, w.plan, w.seats, coalesce(u.timezone, 'UTC') AS timezone
      FROM wallets w LEFT JOIN users u ON u.id = w.user_id
     WHERE w.daily_renews_at <= ${now} ${walletId ? sql`AND w.id = ${walletId}::uuid` : sql``}
     ORDER BY w.daily_renews_at LIMIT ${limit}
       FOR UPDATE OF w ${walletId ? sql`` : sql`SKIP LOCKED`}`)) as unknown as {
    rows: { id: string; plan: PlanId; seats: number; timezone: string }[];
  };
  return result.rows;
}

/**
 * Renews these wallets' daily credits: each is set back to its allowance (one `renewal` row for the difference)
 * and its next renewal set, in one statement. A wallet already renewed (by another instance) is left alone.
 */
export async function renewDaily(db: Tx, now: Date, due: { id: string; allowance: number; next: Date }[]) {
  if (!due.length) return 0;
  const ids = `{${due.map((d) => d.id).join(',')}}`;
  const allowances = `{${due.map((d) => d.allowance).join(',')}}`;
  const nexts = `{${due.map((d) => d.next.toISOString()).join(',')}}`;
  const result = (await db.execute(sql`
    WITH n AS (
      SELECT * FROM unnest(${ids}::uuid[], ${allowances}::int[], ${nexts}::timestamptz[]) AS n(id, allowance, next)
    ), cur AS (
      SELECT w.id, w.user_id, w.daily_credit, n.allowance, n.next FROM wallets w JOIN n ON n.id = w.id
       WHERE w.daily_renews_at <= ${now}
    ), renewed AS (
      UPDATE wallets w SET daily_credit = cur.allowance, daily_renews_at = cur.next, updated_at = now()
        FROM cur WHERE w.id = cur.id RETURNING w.id
    ), logged AS (
      INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, created_at)
      SELECT id, user_id, 'daily', allowance - daily_credit, 'renewal', ${now} FROM cur WHERE allowance <> daily_credit
    )
    SELECT count(*)::int AS renewed FROM renewed`)) as unknown as { rows: { renewed: number }[] };
  return result.rows[0]?.renewed ?? 0;
}

/**
 * Until when a wallet's monthly top-ups may come (SQL, over wallet `w` and its subscription `s`, left-joined): a base
 * plan that renews without payment (the app deal) has no end; a paid plan tops up only inside what was paid for
 * (decision 025). The paid period is the subscription's current one when its allowance was granted (an admin's grant
 * without an end date has none), else the one before it, which ended where the current one, unpaid, began. A paid
 * plan with nothing paid, or whose subscription is no longer live, is topped up by nothing.
 */
const PAID_UNTIL = `CASE
    WHEN w.plan NOT IN (${PAID_PLANS}) THEN 'infinity'::timestamptz
    WHEN s.granted_period_start IS NULL OR s.status NOT IN ('trialing', 'active', 'past_due', 'unpaid')
      THEN '-infinity'::timestamptz
    WHEN s.granted_period_start = s.current_period_start THEN coalesce(s.current_period_end, 'infinity'::timestamptz)
    ELSE s.current_period_start
  END`;

/**
 * The top-up after `monthly_renews_at` (SQL, over `w` and `s` as above). A paid plan's months are counted from the start
 * of the period paid for, not from the last top-up: a month added to the 31st gives the 28th of February, and adding
 * months to that would keep the 28th, and bring a twelfth top-up of a yearly plan a few days before its year ends.
 */
const NEXT_TOP_UP = `CASE
    WHEN w.plan IN (${PAID_PLANS}) AND s.granted_period_start IS NOT NULL
      THEN s.granted_period_start + make_interval(months => 1 +
             round(extract(epoch FROM w.monthly_renews_at - s.granted_period_start) / 2629746)::int)
    ELSE w.monthly_renews_at + interval '1 month'
  END`;

/**
 * Tops up the credits of wallets whose monthly renewal is due to their plan's allowance, never lowering one; each raise
 * a `renewal` row; the next renewal a month later. Plans that renew without payment are topped up every month; a paid
 * plan only while the top-up falls inside the period paid for (PAID_UNTIL), and its last top-up there leaves no next
 * one: paying for the next period grants its allowance and sets its top-ups. Returns how many.
 */
export async function renewMonthly(
  db: Db,
  now: Date,
  plans: Record<PlanId, { allowance: Allowance; perSeat?: boolean }>,
) {
  const ids = Object.keys(plans) as PlanId[];
  const table = (pick: keyof Allowance) => `{${ids.map((p) => plans[p].allowance[pick]).join(',')}}`;
  const perSeat = `{${ids.map((p) => Boolean(plans[p].perSeat)).join(',')}}`;
  const result = (await db.execute(sql`
    WITH a AS (
      SELECT * FROM unnest(${`{${ids.join(',')}}`}::text[], ${table('basicCredit')}::int[],
                           ${table('advanceCredit')}::int[], ${table('extraAdvanceCredit')}::int[],
                           ${perSeat}::boolean[])
                 AS a(plan, basic, advance, extra, per_seat)
    ), cur AS (
      SELECT w.id, w.user_id, w.basic_credit, w.advance_credit, w.extra_advance_credit,
             a.basic * n.seats AS basic, a.advance * n.seats AS advance, a.extra * n.seats AS extra,
             CASE WHEN n.next < n.paid_until THEN n.next END AS next
        FROM wallets w JOIN a ON a.plan = w.plan
             LEFT JOIN subscriptions s ON s.wallet_id = w.id
             CROSS JOIN LATERAL (
               SELECT CASE WHEN a.per_seat THEN w.seats ELSE 1 END AS seats,
                      ${sql.raw(PAID_UNTIL)} AS paid_until, ${sql.raw(NEXT_TOP_UP)} AS next
             ) n
       WHERE w.monthly_renews_at <= ${now} AND w.monthly_renews_at < n.paid_until
         FOR UPDATE OF w SKIP LOCKED
    ), renewed AS (
      UPDATE wallets w SET basic_credit = greatest(cur.basic_credit, cur.basic),
             advance_credit = greatest(cur.advance_credit, cur.advance),
             extra_advance_credit = greatest(cur.extra_advance_credit, cur.extra),
             monthly_renews_at = cur.next, updated_at = now()
        FROM cur WHERE w.id = cur.id RETURNING w.id
    ), logged AS (
      INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, created_at)
      SELECT cur.id, cur.user_id, g.b, g.n, 'renewal', ${now} FROM cur CROSS JOIN LATERAL (VALUES
        ('basic', cur.basic - cur.basic_credit), ('advance', cur.advance - cur.advance_credit),
        ('extraAdvance', cur.extra - cur.extra_advance_credit)) AS g(b, n)
       WHERE g.n > 0
    )
    SELECT count(*)::int AS renewed FROM renewed`)) as unknown as { rows: { renewed: number }[] };
  return result.rows[0]?.renewed ?? 0;
}

/** Credits used (charged calls) since `since`, by day in `timezone` and by model tier (from wallet_usage). */
export async function usageByDay(db: Db, walletId: string, since: Date, timezone: string) {
  const result = (await db.execute(sql`
    SELECT to_char(hour AT TIME ZONE ${timezone}, 'YYYY-MM-DD') AS day, tier, sum(used)::int AS used
      FROM wallet_usage
     WHERE wallet_id = ${walletId}::uuid AND hour >= ${since}
     GROUP BY 1, 2`)) as unknown as { rows: { day: string; tier: Tier; used: number }[] };
  return result.rows;
}

/** Whether PostgreSQL knows this time zone (Node's and PostgreSQL's time zone data can differ). */
export async function knowsTimeZone(db: Db, timezone: string) {
  try {
    await db.execute(sql`SELECT now() AT TIME ZONE ${timezone}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The day the free tier's daily uses count in, for a wallet (SQL, over a `daily_renews_at`): the day that ends at its
 * next daily renewal, not today in the person's time zone. Their time zone is theirs to change at any moment, and each
 * zone's today was a fresh day of uses; the renewal instant only ever moves later (postponeDailyRenewal), so the uses
 * counted in it stay counted until the daily credits come back. Dated as it is by the person in every zone up to 12
 * hours from UTC: the renewal is their next midnight, and 12 hours and a second before it is still their today.
 */
const GATE_DAY = (renewsAt: string) => `((${renewsAt} - interval '12 hours 1 second') AT TIME ZONE 'UTC')::date`;

/**
 * Counts one use of a gated capability by `userId` in the gate day of wallet `walletId` (GATE_DAY), if fewer than
 * `limit` were counted: one statement, so that any number of concurrent calls lets exactly `limit` through. `count` is
 * the count after, or null when nothing was counted: the limit was hit, or (`due`) the wallet's daily renewal is due
 * and its day is about to change (the caller renews it and asks again). `day` is the day counted in.
 */
export async function takeFeatureUse(
  db: Db,
  walletId: string,
  userId: string,
  capability: string,
  now: Date,
  limit: number,
) {
  const result = (await db.execute(sql`
    WITH w AS (
      SELECT ${sql.raw(GATE_DAY('daily_renews_at'))} AS day, daily_renews_at <= ${now} AS due
        FROM wallets WHERE id = ${walletId}::uuid
    ), taken AS (
      INSERT INTO feature_uses (user_id, capability, day, count)
      SELECT ${userId}::uuid, ${capability}, w.day, 1 FROM w WHERE NOT w.due
      ON CONFLICT (user_id, capability, day)
      DO UPDATE SET count = feature_uses.count + 1 WHERE feature_uses.count < ${limit}
      RETURNING count
    )
    SELECT (SELECT count FROM taken) AS count, w.day::text AS day, w.due FROM w`)) as unknown as {
    rows: { count: number | null; day: string; due: boolean }[];
  };
  const row = result.rows[0];
  return { count: row?.count ?? null, day: row?.day ?? null, due: row?.due === true };
}

/** Gives one use back (the call failed before any output). */
export async function giveBackFeatureUse(db: Db, userId: string, capability: string, day: string) {
  await db
    .update(featureUses)
    .set({ count: sql`greatest(${featureUses.count} - 1, 0)` })
    .where(and(eq(featureUses.userId, userId), eq(featureUses.capability, capability), eq(featureUses.day, day)));
}

/** The uses of each gated capability `userId` has counted in the gate day of wallet `walletId` (GATE_DAY). */
export async function featureUsesOf(db: Db, userId: string, walletId: string) {
  const result = (await db.execute(sql`
    SELECT f.capability, f.count FROM feature_uses f JOIN wallets w ON w.id = ${walletId}::uuid
     WHERE f.user_id = ${userId}::uuid AND f.day = ${sql.raw(GATE_DAY('w.daily_renews_at'))}`)) as unknown as {
    rows: { capability: string; count: number }[];
  };
  return result.rows;
}

/**
 * The next daily renewal of `userId`'s own wallet moves to `next`, but never earlier than it was. When that moves its
 * gate day (GATE_DAY) to another date, the uses counted in the old one are counted in the new one too, for everyone
 * whose uses count in this wallet's day (its owner, unless they spend from an organization's, and its members): the
 * day has not ended, it only ends later, and a change of time zone must not bring a fresh day of uses. For the same
 * reason, the daily parts of reservations still pending move to the new end of the day (see refundWith).
 */
export async function postponeDailyRenewal(db: Db, userId: string, next: Date) {
  await db.execute(sql`
    WITH pend AS (
      -- The wallet's pending reservations of daily credits, locked before the wallet, in the order of their ids: the
      -- order a charge, a refund and the sweep take (ledger rows, then the wallet), so that none of them deadlocks
      -- with this. One being settled meanwhile is waited for, and is then no longer pending.
      SELECT l.id FROM wallet_ledger l JOIN wallets w ON w.id = l.wallet_id
       WHERE w.user_id = ${userId}::uuid AND l.state = 'reserved' AND l.daily_until IS NOT NULL
       ORDER BY l.id
         FOR NO KEY UPDATE OF l
    ), old AS (
      SELECT id, daily_renews_at FROM wallets
       WHERE user_id = ${userId}::uuid AND (SELECT count(*) FROM pend) >= 0
         FOR UPDATE
    ), moved AS (
      UPDATE wallets w SET daily_renews_at = greatest(old.daily_renews_at, ${next})
        FROM old WHERE w.id = old.id
    RETURNING w.id, old.daily_renews_at AS was, w.daily_renews_at AS now,
              ${sql.raw(GATE_DAY('old.daily_renews_at'))} AS before, ${sql.raw(GATE_DAY('w.daily_renews_at'))} AS after
    ), pending AS (
      UPDATE wallet_ledger l SET daily_until = moved.now
        FROM moved
       WHERE l.id IN (SELECT id FROM pend) AND l.state = 'reserved' AND l.wallet_id = moved.id
         AND l.daily_until = moved.was AND moved.now <> moved.was
    ), counted AS (
      SELECT m.user_id FROM wallet_members m JOIN moved ON m.wallet_id = moved.id
      UNION
      SELECT ${userId}::uuid WHERE NOT EXISTS (
        SELECT 1 FROM wallet_members m JOIN moved ON m.wallet_id <> moved.id WHERE m.user_id = ${userId}::uuid)
    )
    INSERT INTO feature_uses (user_id, capability, day, count)
    SELECT f.user_id, f.capability, moved.after, f.count
      FROM moved JOIN feature_uses f ON f.day = moved.before
     WHERE moved.after <> moved.before AND f.count > 0 AND f.user_id IN (SELECT user_id FROM counted)
    ON CONFLICT (user_id, capability, day) DO UPDATE SET count = feature_uses.count + excluded.count`);
}

/** The first day of `now`'s calendar month in UTC (the month members' limits count), as YYYY-MM-DD. */
export const monthOf = (now: Date) => `${now.toISOString().slice(0, 7)}-01`;

/**
 * Makes a wallet pay for an organization: `organization_id` set (only if it pays for none yet), locked. Returns the
 * wallet's plan and seats, or null when it already pays for an organization.
 */
export async function linkWalletToOrganization(tx: Tx, walletId: string, organizationId: string) {
  const result = (await tx.execute(sql`
    UPDATE wallets SET organization_id = ${organizationId}::uuid, updated_at = now()
     WHERE id = ${walletId}::uuid AND organization_id IS NULL
 RETURNING plan, seats`)) as unknown as { rows: { plan: PlanId; seats: number }[] };
  return result.rows[0] ?? null;
}

/** From now on `userId` spends from the wallet of `organizationId` (no limit, nothing used this month). */
export async function addWalletMember(tx: Tx, organizationId: string, userId: string, now: Date) {
  const result = (await tx.execute(sql`
    INSERT INTO wallet_members (user_id, wallet_id, monthly_limit, period, used)
    SELECT ${userId}::uuid, w.id, NULL, ${monthOf(now)}::date, 0 FROM wallets w WHERE w.organization_id = ${organizationId}::uuid
    ON CONFLICT (user_id) DO UPDATE SET wallet_id = excluded.wallet_id, monthly_limit = NULL,
                                        period = excluded.period, used = 0
 RETURNING wallet_id`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** `userId` no longer spends from the wallet of `organizationId` (their own wallet pays again). */
export async function removeWalletMember(tx: Tx, organizationId: string, userId: string) {
  await tx.execute(sql`
    DELETE FROM wallet_members m USING wallets w
     WHERE m.user_id = ${userId}::uuid AND m.wallet_id = w.id AND w.organization_id = ${organizationId}::uuid`);
}

/** Sets a member's monthly limit; returns the limit before, or undefined when they spend from no such wallet. */
export async function setWalletMemberLimit(tx: Tx, organizationId: string, userId: string, limit: number | null) {
  const result = (await tx.execute(sql`
    WITH old AS (
      SELECT m.user_id, m.monthly_limit FROM wallet_members m JOIN wallets w ON w.id = m.wallet_id
       WHERE m.user_id = ${userId}::uuid AND w.organization_id = ${organizationId}::uuid FOR UPDATE OF m
    )
    UPDATE wallet_members m SET monthly_limit = ${limit}::int FROM old WHERE m.user_id = old.user_id
 RETURNING old.monthly_limit AS before`)) as unknown as { rows: { before: number | null }[] };
  return result.rows[0];
}

/** Each member's limit and what they used from the organization's wallet in the month of `now`. */
export async function walletMembersOf(db: Db | Tx, organizationId: string, now: Date) {
  const result = (await db.execute(sql`
    SELECT m.user_id AS "userId", m.monthly_limit AS "limit",
           CASE WHEN m.period = ${monthOf(now)}::date THEN m.used ELSE 0 END AS used
      FROM wallet_members m JOIN wallets w ON w.id = m.wallet_id
     WHERE w.organization_id = ${organizationId}::uuid`)) as unknown as {
    rows: { userId: string; limit: number | null; used: number }[];
  };
  return result.rows;
}

/** The plan and seats of the wallets that pay for these organizations. */
export async function organizationWallets(db: Db | Tx, organizationIds: string[]) {
  if (!organizationIds.length) return [];
  const result = (await db.execute(sql`
    SELECT organization_id AS "organizationId", plan, seats FROM wallets
     WHERE organization_id = ANY(${`{${organizationIds.join(',')}}`}::uuid[])`)) as unknown as {
    rows: { organizationId: string; plan: PlanId; seats: number }[];
  };
  return result.rows;
}

/** The organization is gone: its members spend from their own wallets again, and its wallet is its owner's only. */
export async function unlinkOrganization(tx: Tx, organizationId: string) {
  await tx.execute(sql`
    WITH w AS (
      UPDATE wallets SET organization_id = NULL, updated_at = now()
       WHERE organization_id = ${organizationId}::uuid RETURNING id
    )
    DELETE FROM wallet_members m USING w WHERE m.wallet_id = w.id`);
}
