import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Settings } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { jsonOf, jsonReader, run, statement } from '../../db/prepared.js';
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

/**
 * Google's proof of the address takes over an account nobody proved it for (a sign-up never verified): the account is
 * Google's from now on, verified, and the password its sign-up chose, which may not be the owner's, is gone. Only
 * while it is still unverified and has no Google identity, in one statement.
 */
export async function claimUnverifiedForGoogle(db: Tx, id: string, googleSub: string) {
  const [row] = await db
    .update(users)
    .set({ googleSub, verified: true, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.verified, false), isNull(users.googleSub)))
    .returning();
  return row;
}

/**
 * The user's row, locked until the transaction ends: a sign-in holds it while it ends the other sessions and adds its
 * own, so that sign-ins, password resets and changes (which update the row first) happen one after the other.
 */
export async function lockUser(db: Tx, id: string) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, multipleLogin: users.multipleLogin })
    .from(users)
    .where(eq(users.id, id))
    .for('update');
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

/** What a request carries of a session: what checking it needs. */
const SESSION_KEYS = ['id', 'userId', 'expiresAt', 'revokedAt', 'revokedReason'] as const;
export type SessionRef = Pick<SessionRow, (typeof SESSION_KEYS)[number]>;

/** What a request carries of its user (the caller's account): no password hash, which stays in the database. */
const ACCOUNT_KEYS = [
  'id',
  'email',
  'name',
  'fullName',
  'role',
  'timezone',
  'language',
  'verified',
  'lifetimeUser',
  'multipleLogin',
  'earlyBird',
  'appDeal',
  'loginCount',
  'createdAt',
] as const;
export type Account = Pick<UserRow, (typeof ACCOUNT_KEYS)[number]> & { hasPassword: boolean; googleLinked: boolean };

export function toAccount(user: UserRow): Account {
  const account = Object.fromEntries(ACCOUNT_KEYS.map((key) => [key, user[key]])) as Pick<
    UserRow,
    (typeof ACCOUNT_KEYS)[number]
  >;
  return { ...account, hasPassword: user.passwordHash !== null, googleLinked: user.googleSub !== null };
}

/**
 * The session `s` and its user `u` as two JSON values, "session" and "user" (db/prepared.ts: jsonOf), for the
 * statements that check a session (accounts' own, and billing's, which adds the wallet).
 */
export const SESSION_AND_ACCOUNT = `${jsonOf(sessions, 's', SESSION_KEYS)} AS "session", ${jsonOf(
  users,
  'u',
  ACCOUNT_KEYS,
  {
    hasPassword: 'u.password_hash IS NOT NULL',
    googleLinked: 'u.google_sub IS NOT NULL',
  },
)} AS "user"`;

export type SessionWithUser = { session: SessionRef; user: Account };

const readSession = jsonReader<SessionRef>(sessions, SESSION_KEYS);
const readAccount = jsonReader<Account>(users, ACCOUNT_KEYS);

/** A row read with SESSION_AND_ACCOUNT, as the session and its user. */
export function toSessionWithUser(row: { session: unknown; user: unknown }): SessionWithUser {
  return {
    session: readSession(row.session as Record<string, unknown>),
    user: readAccount(row.user as Record<string, unknown>),
  };
}

const sessionWithUser = statement<{ session: unknown; user: unknown }>(
  'session_with_user',
  `SELECT ${SESSION_AND_ACCOUNT} FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
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

/** Whether `code` is a licence code not yet redeemed (redeeming it is still the conditional update above). */
export async function licenceCodeUsable(db: Tx, code: string) {
  const [row] = await db
    .select({ code: licenceCodes.code })
    .from(licenceCodes)
    .where(and(eq(licenceCodes.code, code), isNull(licenceCodes.redeemedAt)))
    .limit(1);
  return !!row;
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
