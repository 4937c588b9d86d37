import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkedinStats } from '../../db/schema/index.js';

export type StatRow = typeof linkedinStats.$inferSelect;

/** One value per person, metric and day: a later reading of the same day replaces it. */
export async function saveReadings(
  tx: Tx,
  userId: string,
  readings: { metric: string; day: string; value: number }[],
  source: 'page' | 'import',
  now: Date,
) {
  for (let i = 0; i < readings.length; i += 500) {
    await tx
      .insert(linkedinStats)
      .values(readings.slice(i, i + 500).map((r) => ({ ...r, userId, source, updatedAt: now })))
      .onConflictDoUpdate({
        target: [linkedinStats.userId, linkedinStats.metric, linkedinStats.day],
        set: { value: sql`excluded.value`, source: sql`excluded.source`, updatedAt: now },
      });
  }
}

export async function readingsSince(db: Db, userId: string, since: string) {
  return db
    .select()
    .from(linkedinStats)
    .where(and(eq(linkedinStats.userId, userId), gte(linkedinStats.day, since)))
    .orderBy(asc(linkedinStats.metric), asc(linkedinStats.day));
}

/** The latest reading of each metric, whatever its day. */
export async function latest(db: Db, userId: string) {
  return db
    .selectDistinctOn([linkedinStats.metric])
    .from(linkedinStats)
    .where(eq(linkedinStats.userId, userId))
    .orderBy(linkedinStats.metric, sql`${linkedinStats.day} DESC`);
}
