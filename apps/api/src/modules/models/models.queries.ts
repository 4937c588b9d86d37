import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiKeys } from '../../db/schema/index.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function listApiKeys(db: Db, userId: string) {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeys.provider));
}

export async function upsertApiKey(db: Db, values: typeof apiKeys.$inferInsert) {
  const [row] = await db
    .insert(apiKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [apiKeys.userId, apiKeys.provider],
      set: {
        keyCiphertext: values.keyCiphertext,
        keyHint: values.keyHint,
        baseUrl: values.baseUrl,
        modelName: values.modelName,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function deleteApiKey(db: Db, userId: string, provider: string) {
  await db.delete(apiKeys).where(and(eq(apiKeys.userId, userId), eq(apiKeys.provider, provider)));
}
