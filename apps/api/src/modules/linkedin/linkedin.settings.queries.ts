import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkedinSettings } from '../../db/schema/index.js';

/** The person's stored settings document, or undefined when they never changed any. */
export async function findSettings(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({ settings: linkedinSettings.settings })
    .from(linkedinSettings)
    .where(eq(linkedinSettings.userId, userId));
  return row?.settings as Record<string, unknown> | undefined;
}

export async function saveSettings(tx: Tx, userId: string, settings: object, now: Date) {
  await tx
    .insert(linkedinSettings)
    .values({ userId, settings, updatedAt: now })
    .onConflictDoUpdate({
      target: linkedinSettings.userId,
      set: { settings: sql`excluded.settings`, updatedAt: now },
    });
}
