import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkedinConnections, linkedinOauthStates } from '../../db/schema/index.js';

export type ConnectionRow = typeof linkedinConnections.$inferSelect;

/** States a person may have open at once (several tabs); older ones are dropped. */
const OPEN_STATES_MAX = 5;

export async function insertState(db: Db, row: { stateHash: string; userId: string; expiresAt: Date; now: Date }) {
  await db.transaction(async (tx) => {
    await tx
      .delete(linkedinOauthStates)
      .where(and(eq(linkedinOauthStates.userId, row.userId), lt(linkedinOauthStates.expiresAt, row.now)));
    await tx.insert(linkedinOauthStates).values({
      stateHash: row.stateHash,
      userId: row.userId,
      expiresAt: row.expiresAt,
      createdAt: row.now,
    });
    const open = await tx
      .select({ stateHash: linkedinOauthStates.stateHash })
      .from(linkedinOauthStates)
      .where(eq(linkedinOauthStates.userId, row.userId))
      .orderBy(asc(linkedinOauthStates.createdAt));
    for (const old of open.slice(0, Math.max(0, open.length - OPEN_STATES_MAX))) {
      await tx.delete(linkedinOauthStates).where(eq(linkedinOauthStates.stateHash, old.stateHash));
    }
  });
}

/** Takes a state: it is deleted whoever presents it, so it can be used once at most. */
export async function takeState(db: Db, stateHash: string) {
  const [row] = await db.delete(linkedinOauthStates).where(eq(linkedinOauthStates.stateHash, stateHash)).returning();
  return row;
}

export async function findConnection(db: Db | Tx, userId: string) {
  const [row] = await db.select().from(linkedinConnections).where(eq(linkedinConnections.userId, userId));
  return row;
}

/**
 * Stores a person's connection and returns the one it replaced, read under a per-person lock in the same transaction:
 * two callbacks at once each get back the token the other one replaced, so none is left unrevoked.
 */
export async function replaceConnection(
  db: Db,
  values: Omit<ConnectionRow, 'createdAt' | 'updatedAt'> & { now: Date },
): Promise<{ row: ConnectionRow; previous: ConnectionRow | undefined }> {
  const { now, ...row } = values;
  return db.transaction(async (tx) => {
    // A lock that holds even when the person has no row yet (a row lock would not).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`linkedin-connection:${row.userId}`}, 0))`);
    const previous = await findConnection(tx, row.userId);
    const [saved] = await tx
      .insert(linkedinConnections)
      .values({ ...row, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: linkedinConnections.userId,
        set: {
          memberId: row.memberId,
          name: row.name,
          email: row.email,
          picture: row.picture,
          accessTokenEnc: row.accessTokenEnc,
          scope: row.scope,
          expiresAt: row.expiresAt,
          updatedAt: now,
        },
      })
      .returning();
    return { row: saved!, previous };
  });
}

export async function deleteConnection(db: Db, userId: string) {
  const [row] = await db.delete(linkedinConnections).where(eq(linkedinConnections.userId, userId)).returning();
  return row;
}

/** Drops states nobody used (their 10 minutes are over). */
export async function deleteExpiredStates(db: Db, now: Date) {
  await db.delete(linkedinOauthStates).where(lt(linkedinOauthStates.expiresAt, now));
}

/** The token stops counting as valid now (LinkedIn refused it). */
export async function expireConnection(db: Db, userId: string, now: Date) {
  await db
    .update(linkedinConnections)
    .set({ expiresAt: now, updatedAt: now })
    .where(and(eq(linkedinConnections.userId, userId), gt(linkedinConnections.expiresAt, now)));
}
