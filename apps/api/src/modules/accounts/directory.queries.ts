import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminUserSort } from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';

/**
 * The outer row's id, qualified by hand: Drizzle writes a column of the only table selected from without its table,
 * and inside these subqueries a bare "id" would be the session's.
 */
const userId = sql.raw('"users"."id"');
/** When the person last signed in (their newest session was started), and how many of their sessions are live. */
const lastSignIn = sql`(SELECT max(s.created_at) FROM sessions s WHERE s.user_id = ${userId})`;
const lastLoginAt = sql<Date | null>`${lastSignIn}`.mapWith(sessions.createdAt);
const activeSessions = sql<number>`(SELECT count(*) FROM sessions s
   WHERE s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > now())`.mapWith(Number);

const SORTS: Record<AdminUserSort, SQL> = {
  createdAt: sql`${users.createdAt}`,
  email: sql`lower(${users.email})`,
  name: sql`lower(${users.name})`,
  loginCount: sql`${users.loginCount}`,
  lastLoginAt: lastSignIn,
};

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const matching = (search: string) => {
  if (!search) return undefined;
  const pattern = containing(search);
  return or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(users.fullName, pattern));
};

export async function listUsers(
  db: Db,
  input: { search: string; sort: AdminUserSort; order: 'asc' | 'desc'; page: number; pageSize: number },
) {
  const where = matching(input.search);
  const direction = input.order === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select({ user: users, lastLoginAt, activeSessions })
      .from(users)
      .where(where)
      // Never-signed-in people last whichever the order; the id keeps pages stable among equal values.
      .orderBy(sql`${direction(SORTS[input.sort])} NULLS LAST`, asc(users.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findUserWithSessions(db: Tx, id: string) {
  const [row] = await db.select({ user: users, lastLoginAt, activeSessions }).from(users).where(eq(users.id, id));
  return row;
}

/**
 * The account's row, locked until the transaction ends against every other change to it. `FOR UPDATE` (the
 * default) also keeps out rows that would name it (a session, a ledger row: their foreign key's check), as its
 * deletion must; `FOR NO KEY UPDATE` lets them through, so that a change to the account made with its wallet's row
 * (an admin's edit) never waits for the person's own reservation while that waits for it.
 */
export async function lockUser(tx: Tx, id: string, strength: 'FOR UPDATE' | 'FOR NO KEY UPDATE' = 'FOR UPDATE') {
  const result = (await tx.execute(sql`
    SELECT id, email, role, lifetime_user AS "lifetimeUser", multiple_login AS "multipleLogin"
      FROM users WHERE id = ${id}::uuid ${sql.raw(strength)}`)) as unknown as {
    rows: { id: string; email: string; role: 'user' | 'admin'; lifetimeUser: boolean; multipleLogin: boolean }[];
  };
  return result.rows[0];
}

/**
 * Every site admin's row, locked in one order (so that two transactions that lock them cannot deadlock): a row
 * deleted by a transaction that held the lock first is no longer among them. `FOR NO KEY UPDATE`: two of these
 * still wait for each other, but an admin's own reservations (their foreign key's check) do not wait for them.
 */
export async function lockSiteAdmins(tx: Tx) {
  const result = (await tx.execute(sql`
    SELECT id FROM users WHERE role = 'admin' ORDER BY id FOR NO KEY UPDATE`)) as unknown as {
    rows: { id: string }[];
  };
  return result.rows.map((r) => r.id);
}

export async function setFlags(tx: Tx, id: string, flags: { lifetimeUser?: boolean; multipleLogin?: boolean }) {
  const [row] = await tx
    .update(users)
    .set({ ...flags, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Ends every live session of a user (except `keepId`) as forced: their next call answers 409. Returns how many. */
export async function forceEndSessions(db: Tx, userId: string, keepId?: string) {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: 'forced' })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        keepId ? sql`${sessions.id} <> ${keepId}` : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** Deletes the account; everything that is theirs goes with it (foreign keys cascade). */
export async function deleteUser(tx: Tx, id: string) {
  const rows = await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length === 1;
}

/** Names and addresses of these accounts (those that exist). */
export async function findPeople(db: Tx, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(sql`${users.id} = ANY(${`{${ids.join(',')}}`}::uuid[])`);
}

export async function findIdByEmail(db: Tx, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row?.id;
}
