import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Settings } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { columnReader, columnsOf, run, statement } from '../../db/prepared.js';
import { emailTokens, licenceCodes, sessions, userSettings, users } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type { Tx } from '../../db/client.js';
import type { Tx } from '../../db/client.js';

export async function findUserByEmail(db: Tx, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Tx, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByGoogleSub(db: Tx, sub: string) {
  const [row] = await db.select().from(users).where(eq(users.googleSub, sub)).limit(1);
  return row;
}

export async function insertUser(db: Tx, values: NewUser) {
  const [row] = await db.insert(users).values(values).returning();
  await db.insert(userSettings).values({ userId: row!.id }).onConflictDoNothing();
  return row!;
}

export async function updateUser(db: Tx, id: string, patch: Partial<NewUser>) {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function incrementLoginCount(db: Tx, id: string) {
  const [row] = await db
    .update(users)
    .set({ loginCount: sql`${users.loginCount} + 1` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function insertSession(db: Tx, values: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(values).returning();
  return row!;
}

/** The columns of a session (as `s.<key>`) and of its user (as `u.<key>`), for statements that read both. */
export const SESSION_WITH_USER_COLUMNS = `${columnsOf(sessions, 's', 's.')}, ${columnsOf(users, 'u', 'u.')}`;

export type SessionWithUser = { session: SessionRow; user: UserRow };

const readSession = columnReader<SessionRow>(sessions, 's.');
const readUser = columnReader<UserRow>(users, 'u.');

/** A row read with SESSION_WITH_USER_COLUMNS, as the session and its user. */
export function toSessionWithUser(row: Record<string, unknown>): SessionWithUser {
  return { session: readSession(row), user: readUser(row) };
}

const sessionWithUser = statement<Record<string, unknown>>(
  'session_with_user',
  `SELECT ${SESSION_WITH_USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
);

/** One query per authenticated request: the session and its user. */
export async function findSessionWithUser(db: Db, tokenHash: string): Promise<SessionWithUser | undefined> {
  const [row] = await run(db, sessionWithUser, [tokenHash]);
  return row ? toSessionWithUser(row) : undefined;
}

export async function revokeSession(db: Tx, id: string, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Ends every live session of a user, except `keepId` when given. */
export async function revokeUserSessions(db: Tx, userId: string, reason: string, keepId?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        keepId ? ne(sessions.id, keepId) : undefined,
      ),
    );
}

export async function insertEmailToken(db: Tx, values: typeof emailTokens.$inferInsert) {
  await db.insert(emailTokens).values(values);
}

export async function findEmailToken(db: Tx, kind: 'verify' | 'reset', tokenHash: string) {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.kind, kind)))
    .limit(1);
  return row;
}

/** Single use, enforced by the database: only one caller gets the row back. */
export async function consumeEmailToken(db: Tx, id: string) {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
    .returning();
  return row;
}

/** Older unused links of the same kind stop working when a new one is sent. */
export async function expireEmailTokens(db: Tx, userId: string, kind: 'verify' | 'reset') {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}

export async function redeemLicenceCode(db: Tx, code: string, userId: string) {
  const [row] = await db
    .update(licenceCodes)
    .set({ redeemedBy: userId, redeemedAt: new Date() })
    .where(and(eq(licenceCodes.code, code), isNull(licenceCodes.redeemedAt)))
    .returning();
  return row;
}

export async function insertLicenceCodes(db: Tx, codes: string[]) {
  if (codes.length) await db.insert(licenceCodes).values(codes.map((code) => ({ code })));
}

export async function getSettings(db: Tx, userId: string) {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row?.settings ?? {};
}

/** Merges in one statement (jsonb ||), so two concurrent updates of different keys both survive. */
export async function mergeSettings(db: Tx, userId: string, patch: Partial<Settings>) {
  const [row] = await db
    .insert(userSettings)
    .values({ userId, settings: patch })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { settings: sql`${userSettings.settings} || excluded.settings`, updatedAt: new Date() },
    })
    .returning();
  return row!.settings;
}
