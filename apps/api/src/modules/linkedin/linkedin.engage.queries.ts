import { and, asc, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { automations, linkedinDrafts, linkedinKeywords, linkedinProfiles } from '../../db/schema/index.js';

export type KeywordRow = typeof linkedinKeywords.$inferSelect;
export type ProfileRow = typeof linkedinProfiles.$inferSelect;

/**
 * Serializes one person's changes to their watch lists and the drafts' caps until the transaction ends: a
 * transaction-scoped advisory lock on their id (PostgreSQL and PGlite alike).
 */
export async function lockPerson(tx: Tx, userId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`linkedin:${userId}`}, 0))`);
}

// ---------------------------------------------------------------------------------------------------------------
// Keywords

export const listKeywords = (db: Db | Tx, userId: string) =>
  db
    .select()
    .from(linkedinKeywords)
    .where(eq(linkedinKeywords.userId, userId))
    .orderBy(asc(linkedinKeywords.createdAt), asc(linkedinKeywords.id));

export async function findKeyword(db: Db | Tx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(linkedinKeywords)
    .where(and(eq(linkedinKeywords.id, id), eq(linkedinKeywords.userId, userId)));
  return row;
}

export async function countKeywords(tx: Tx, userId: string) {
  const [row] = await tx.select({ n: count() }).from(linkedinKeywords).where(eq(linkedinKeywords.userId, userId));
  return row?.n ?? 0;
}

/** The person's keyword with this text (case-insensitive), other than `exceptId`. */
export async function keywordNamed(tx: Tx, userId: string, keyword: string, exceptId?: string) {
  const [row] = await tx
    .select({ id: linkedinKeywords.id })
    .from(linkedinKeywords)
    .where(
      and(
        eq(linkedinKeywords.userId, userId),
        sql`lower(${linkedinKeywords.keyword}) = lower(${keyword})`,
        exceptId ? sql`${linkedinKeywords.id} <> ${exceptId}` : undefined,
      ),
    );
  return row;
}

type KeywordValues = Pick<KeywordRow, 'keyword' | 'avoid' | 'include' | 'active'>;

export async function insertKeyword(tx: Tx, userId: string, values: KeywordValues) {
  const [row] = await tx
    .insert(linkedinKeywords)
    .values({ ...values, userId })
    .returning();
  return row!;
}

export async function updateKeyword(tx: Tx, userId: string, id: string, values: Partial<KeywordValues>) {
  const [row] = await tx
    .update(linkedinKeywords)
    .set(values)
    .where(and(eq(linkedinKeywords.id, id), eq(linkedinKeywords.userId, userId)))
    .returning();
  return row;
}

export async function deleteKeyword(tx: Tx, userId: string, id: string) {
  const rows = await tx
    .delete(linkedinKeywords)
    .where(and(eq(linkedinKeywords.id, id), eq(linkedinKeywords.userId, userId)))
    .returning({ id: linkedinKeywords.id });
  return rows.length;
}

export async function markKeywordsRun(tx: Tx, userId: string, ids: string[], at: Date) {
  if (!ids.length) return;
  await tx
    .update(linkedinKeywords)
    .set({ lastRunAt: at })
    .where(and(eq(linkedinKeywords.userId, userId), inArray(linkedinKeywords.id, ids)));
}

// ---------------------------------------------------------------------------------------------------------------
// Followed profiles

export const listProfiles = (db: Db | Tx, userId: string) =>
  db
    .select()
    .from(linkedinProfiles)
    .where(eq(linkedinProfiles.userId, userId))
    .orderBy(asc(linkedinProfiles.createdAt), asc(linkedinProfiles.id));

export async function findProfile(db: Db | Tx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(linkedinProfiles)
    .where(and(eq(linkedinProfiles.id, id), eq(linkedinProfiles.userId, userId)));
  return row;
}

export async function countProfiles(tx: Tx, userId: string) {
  const [row] = await tx.select({ n: count() }).from(linkedinProfiles).where(eq(linkedinProfiles.userId, userId));
  return row?.n ?? 0;
}

export async function profileWithUrl(tx: Tx, userId: string, url: string) {
  const [row] = await tx
    .select({ id: linkedinProfiles.id })
    .from(linkedinProfiles)
    .where(and(eq(linkedinProfiles.userId, userId), eq(linkedinProfiles.url, url)));
  return row;
}

type ProfileValues = Pick<ProfileRow, 'url' | 'name' | 'active'>;

export async function insertProfile(tx: Tx, userId: string, values: ProfileValues) {
  const [row] = await tx
    .insert(linkedinProfiles)
    .values({ ...values, userId })
    .returning();
  return row!;
}

export async function updateProfile(tx: Tx, userId: string, id: string, values: Partial<ProfileValues>) {
  const [row] = await tx
    .update(linkedinProfiles)
    .set(values)
    .where(and(eq(linkedinProfiles.id, id), eq(linkedinProfiles.userId, userId)))
    .returning();
  return row;
}

export async function deleteProfile(tx: Tx, userId: string, id: string) {
  const rows = await tx
    .delete(linkedinProfiles)
    .where(and(eq(linkedinProfiles.id, id), eq(linkedinProfiles.userId, userId)))
    .returning({ id: linkedinProfiles.id });
  return rows.length;
}

export async function markProfilesRun(tx: Tx, userId: string, urls: string[], at: Date) {
  if (!urls.length) return;
  await tx
    .update(linkedinProfiles)
    .set({ lastRunAt: at })
    .where(and(eq(linkedinProfiles.userId, userId), inArray(linkedinProfiles.url, urls)));
}

// ---------------------------------------------------------------------------------------------------------------
// Drafts made on a day, by keyword and by profile (the lists' draftsToday and the caps)

export async function draftsByKeywordOn(db: Db | Tx, userId: string, day: string) {
  return db
    .select({ keywordId: linkedinDrafts.keywordId, n: count() })
    .from(linkedinDrafts)
    .where(and(eq(linkedinDrafts.userId, userId), eq(linkedinDrafts.day, day), isNotNull(linkedinDrafts.keywordId)))
    .groupBy(linkedinDrafts.keywordId);
}

export async function draftsByProfileOn(db: Db | Tx, userId: string, day: string) {
  return db
    .select({ profileUrl: linkedinDrafts.profileUrl, n: count() })
    .from(linkedinDrafts)
    .where(and(eq(linkedinDrafts.userId, userId), eq(linkedinDrafts.day, day), isNotNull(linkedinDrafts.profileUrl)))
    .groupBy(linkedinDrafts.profileUrl);
}

// ---------------------------------------------------------------------------------------------------------------
// The daily engagement runs: one `aiComment` automation per keyword while auto-engage is on

/**
 * Gives each of the person's active keywords (or only `keywordIds`) its daily run: a new row due now (first drafts
 * within 24 hours), or the existing one switched back on (due now when it had been stopped). Under lockPerson.
 */
export async function keepDailyRuns(tx: Tx, userId: string, now: Date, keywordIds?: string[]) {
  if (keywordIds && !keywordIds.length) return;
  const keywords = await tx
    .select({ id: linkedinKeywords.id })
    .from(linkedinKeywords)
    .where(
      and(
        eq(linkedinKeywords.userId, userId),
        eq(linkedinKeywords.active, true),
        keywordIds ? inArray(linkedinKeywords.id, keywordIds) : undefined,
      ),
    );
  if (!keywords.length) return;
  const ids = keywords.map((k) => k.id);
  const existing = await tx
    .select({ id: automations.id, keywordId: automations.keywordId, dailyRun: automations.dailyRun })
    .from(automations)
    .where(and(eq(automations.userId, userId), eq(automations.kind, 'aiComment'), inArray(automations.keywordId, ids)));
  const stopped = existing.filter((a) => !a.dailyRun).map((a) => a.id);
  if (stopped.length)
    await tx
      .update(automations)
      .set({ dailyRun: true, status: 'Pending', runAt: now, updatedAt: now })
      .where(inArray(automations.id, stopped));
  const have = new Set(existing.map((a) => a.keywordId));
  const missing = ids.filter((id) => !have.has(id));
  if (missing.length)
    await tx.insert(automations).values(
      missing.map((keywordId) => ({
        userId,
        kind: 'aiComment' as const,
        keywordId,
        dailyRun: true,
        status: 'Pending' as const,
        runAt: now,
      })),
    );
}

/** Stops the daily runs of the person's keywords (all, or only `keywordIds`): auto-engage off, a keyword paused. */
export async function stopDailyRuns(tx: Tx, userId: string, now: Date, keywordIds?: string[]) {
  if (keywordIds && !keywordIds.length) return;
  await tx
    .update(automations)
    .set({ dailyRun: false, runAt: null, updatedAt: now })
    .where(
      and(
        eq(automations.userId, userId),
        eq(automations.kind, 'aiComment'),
        keywordIds ? inArray(automations.keywordId, keywordIds) : undefined,
      ),
    );
}

/** A keyword's drafts were prepared: its run is done for now, the next one in 24 hours. */
export async function completeDailyRuns(tx: Tx, userId: string, keywordIds: string[], next: Date, now: Date) {
  if (!keywordIds.length) return;
  await tx
    .update(automations)
    .set({ status: 'Completed', runAt: next, runs: sql`${automations.runs} + 1`, error: null, updatedAt: now })
    .where(
      and(
        eq(automations.userId, userId),
        eq(automations.kind, 'aiComment'),
        eq(automations.dailyRun, true),
        inArray(automations.keywordId, keywordIds),
      ),
    );
}
