import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { automations, linkedinKeywords } from '../../db/schema/index.js';

export type AutomationRow = typeof automations.$inferSelect;
type PostValues = Pick<
  AutomationRow,
  'text' | 'runAt' | 'localTime' | 'timezone' | 'repeat' | 'visibility' | 'dailyRun'
>;

/** Serializes one person's changes to their automations (the count against the limit) until the transaction ends. */
export async function lockOwner(tx: Tx, userId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`automations:${userId}`}, 0))`);
}

export async function countPendingPosts(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(automations)
    .where(and(eq(automations.userId, userId), eq(automations.kind, 'post'), eq(automations.status, 'Pending')));
  return row?.n ?? 0;
}

export async function insertPost(tx: Tx, userId: string, values: PostValues, now: Date) {
  const [row] = await tx
    .insert(automations)
    .values({ ...values, userId, kind: 'post', status: 'Pending', createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/**
 * Finished posts (Completed or Error) a person keeps: past this, the oldest finished are deleted when one is
 * scheduled. With the posts that may wait (POSTS_SCHEDULED_MAX), what a person keeps stays within what the list shows.
 */
export const FINISHED_POSTS_KEPT = 250;

/** Deletes the person's finished posts beyond the newest `FINISHED_POSTS_KEPT` (by when they last changed). */
export async function pruneFinishedPosts(tx: Tx, userId: string) {
  const kept = tx
    .select({ id: automations.id })
    .from(automations)
    .where(
      and(
        eq(automations.userId, userId),
        eq(automations.kind, 'post'),
        inArray(automations.status, ['Completed', 'Error']),
        isNull(automations.dedupeKey),
      ),
    )
    .orderBy(desc(automations.updatedAt), desc(automations.id))
    .offset(FINISHED_POSTS_KEPT);
  await tx.delete(automations).where(and(eq(automations.userId, userId), inArray(automations.id, kept)));
}

/** The person's automations, newest first, with the keyword a daily engagement run is for. */
export async function listAutomations(db: Db, userId: string, limit = 500) {
  const rows = await db
    .select({ automation: automations, keyword: linkedinKeywords.keyword })
    .from(automations)
    .leftJoin(
      linkedinKeywords,
      and(eq(linkedinKeywords.id, automations.keywordId), eq(linkedinKeywords.userId, automations.userId)),
    )
    .where(eq(automations.userId, userId))
    .orderBy(desc(automations.createdAt), desc(automations.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.automation, keyword: r.keyword }));
}

export async function findAutomation(db: Db | Tx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(automations)
    .where(and(eq(automations.id, id), eq(automations.userId, userId)));
  return row;
}

/** Not claimed by a worker, or its lease is over. */
const unleased = (now: Date) => or(isNull(automations.leaseUntil), lt(automations.leaseUntil, now));

/** A post can change while it waits: Pending, no publication started, no worker holding it. */
export async function updateWaitingPost(db: Db, userId: string, id: string, values: PostValues, now: Date) {
  const [row] = await db
    .update(automations)
    .set({ ...values, updatedAt: now })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.userId, userId),
        eq(automations.kind, 'post'),
        eq(automations.status, 'Pending'),
        isNull(automations.dedupeKey),
        unleased(now),
      ),
    )
    .returning();
  return row;
}

export async function setAutomation(
  db: Db | Tx,
  userId: string,
  id: string,
  values: Partial<Pick<AutomationRow, 'status' | 'runAt' | 'dailyRun' | 'error' | 'leaseUntil' | 'attemptStartedAt'>>,
  now: Date,
  /** Only while no publication is in doubt (a dedupe key without an outcome). */
  onlyIfSettled = false,
) {
  const [row] = await db
    .update(automations)
    .set({ ...values, updatedAt: now })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.userId, userId),
        ...(onlyIfSettled ? [isNull(automations.dedupeKey)] : []),
      ),
    )
    .returning();
  return row;
}

/**
 * The daily run stops, in one statement. A repeating post already published (runs > 0), waiting for its next run
 * and not being published (no dedupe key) ends at once: Completed, no next time, so a queued job or a sweep finds
 * nothing to claim. A post never published keeps its one pending run. One being published is left Pending: the
 * statement that records its run ends the series then, from `daily_run`. A daily engagement run has no next time.
 * The conditions are read from the row as it is when the statement runs (a publication starting at the same moment
 * either sees it Completed or is seen by it).
 */
export async function disableDailyRun(db: Db, userId: string, id: string, now: Date) {
  const ends = sql`(${automations.kind} = 'post' AND ${automations.repeat} <> 'none' AND ${automations.runs} > 0 AND ${automations.status} = 'Pending' AND ${automations.dedupeKey} IS NULL)`;
  const [row] = await db
    .update(automations)
    .set({
      dailyRun: false,
      status: sql`CASE WHEN ${ends} THEN 'Completed' ELSE ${automations.status} END`,
      runAt: sql`CASE WHEN ${ends} OR ${automations.kind} = 'aiComment' THEN NULL ELSE ${automations.runAt} END`,
      lockedBy: sql`CASE WHEN ${ends} THEN NULL ELSE ${automations.lockedBy} END`,
      leaseUntil: sql`CASE WHEN ${ends} THEN NULL ELSE ${automations.leaseUntil} END`,
      updatedAt: now,
    })
    .where(and(eq(automations.id, id), eq(automations.userId, userId)))
    .returning();
  return row;
}

/** Deletes an automation (the owner's: only while no publication is in doubt; a site admin's: any). */
export async function deleteAutomation(db: Db | Tx, id: string, userId?: string) {
  return db
    .delete(automations)
    .where(
      and(eq(automations.id, id), ...(userId ? [eq(automations.userId, userId), isNull(automations.dedupeKey)] : [])),
    )
    .returning();
}

// ---------------------------------------------------------------------------------------------------------------
// The publisher's statements. Each is one conditional UPDATE: whoever's condition holds wins, everyone else gets
// no row back and stops.

/** Posts due now that no worker holds, oldest first. */
export async function dueIds(db: Db, now: Date, limit: number) {
  const rows = await db
    .select({ id: automations.id })
    .from(automations)
    .where(
      and(eq(automations.kind, 'post'), eq(automations.status, 'Pending'), lte(automations.runAt, now), unleased(now)),
    )
    .orderBy(asc(automations.runAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Takes a due post for `worker` until `leaseUntil`; nobody else can take it meanwhile. */
export async function claim(db: Db, id: string, worker: string, now: Date, leaseUntil: Date) {
  const [row] = await db
    .update(automations)
    .set({ lockedBy: worker, leaseUntil, updatedAt: now })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.kind, 'post'),
        eq(automations.status, 'Pending'),
        lte(automations.runAt, now),
        unleased(now),
      ),
    )
    .returning();
  return row;
}

/** Writes the run's dedupe key before LinkedIn is called; only the lease holder, only once per run. */
export async function startAttempt(db: Db, id: string, worker: string, key: string, now: Date) {
  const [row] = await db
    .update(automations)
    .set({ dedupeKey: key, attemptStartedAt: now, updatedAt: now })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.lockedBy, worker),
        gt(automations.leaseUntil, now),
        eq(automations.status, 'Pending'),
        isNull(automations.dedupeKey),
      ),
    )
    .returning();
  return row;
}

/**
 * The run with this key published `postUrn`: Completed, or, for a repeat whose daily run is still on, Pending again at
 * `nextRunAt`. Whether it goes on is decided here, from the row as it is now (its daily run may have been disabled
 * while the post was being published), in the same statement. Keyed by the dedupe key, so the worker that posted and
 * one that read it back settle it once between them.
 */
export async function finishPublished(
  db: Db,
  id: string,
  key: string,
  outcome: { postUrn: string; publishedAt: Date; nextRunAt: Date | null },
  now: Date,
) {
  const goesOn = sql`(${automations.dailyRun} AND ${automations.repeat} <> 'none')`;
  const next = outcome.nextRunAt ? sql`${outcome.nextRunAt.toISOString()}::timestamptz` : null;
  const [row] = await db
    .update(automations)
    .set({
      status: next ? sql`CASE WHEN ${goesOn} THEN 'Pending' ELSE 'Completed' END` : 'Completed',
      runAt: next ? sql`CASE WHEN ${goesOn} THEN ${next} END` : null,
      postUrn: outcome.postUrn,
      publishedAt: outcome.publishedAt,
      runs: sql`${automations.runs} + 1`,
      error: null,
      dedupeKey: null,
      attemptStartedAt: null,
      lockedBy: null,
      leaseUntil: null,
      updatedAt: now,
    })
    .where(and(eq(automations.id, id), eq(automations.dedupeKey, key), eq(automations.status, 'Pending')))
    .returning();
  return row;
}

/**
 * The run ends in Error (not retried without the person). With a key: only that run's; without: the holder's.
 * `inDoubt`: LinkedIn may have published that run's post (it was sent, and never confirmed nor found): the attempt's
 * start stays (`attemptStartedAt` without a dedupe key), so that a run resumed by the person looks for the post on
 * LinkedIn before sending it again. A run ended before anything was sent keeps what an earlier run left there.
 */
export async function failRun(
  db: Db,
  id: string,
  by: { key: string } | { worker: string },
  code: string,
  now: Date,
  { inDoubt = false }: { inDoubt?: boolean } = {},
) {
  const [row] = await db
    .update(automations)
    .set({
      status: 'Error',
      error: code,
      runAt: null,
      dedupeKey: null,
      ...('key' in by && !inDoubt ? { attemptStartedAt: null } : {}),
      lockedBy: null,
      leaseUntil: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.status, 'Pending'),
        'key' in by
          ? eq(automations.dedupeKey, by.key)
          : and(eq(automations.lockedBy, by.worker), isNull(automations.dedupeKey)),
      ),
    )
    .returning();
  return row;
}

/** The holder lets go until `notBefore` (a read-back to retry, LinkedIn unreachable). */
export async function release(db: Db, id: string, worker: string, notBefore: Date, now: Date, clearKey?: string) {
  const [row] = await db
    .update(automations)
    .set({
      lockedBy: null,
      leaseUntil: notBefore,
      updatedAt: now,
      // A request that never left: this run may try again, under a new key.
      ...(clearKey ? { dedupeKey: null, attemptStartedAt: null } : {}),
    })
    .where(
      and(
        eq(automations.id, id),
        eq(automations.lockedBy, worker),
        ...(clearKey ? [eq(automations.dedupeKey, clearKey)] : []),
      ),
    )
    .returning();
  return row;
}

/** Posts whose publication is in doubt (for the read-back sweep and tests). */
export async function inDoubt(db: Db) {
  return db
    .select()
    .from(automations)
    .where(and(eq(automations.status, 'Pending'), isNotNull(automations.dedupeKey)));
}
