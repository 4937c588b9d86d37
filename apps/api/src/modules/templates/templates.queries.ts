import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { shortcuts, signatureDefaults, signatures, templates } from '../../db/schema/index.js';

export type TemplateRow = typeof templates.$inferSelect;
export type SignatureRow = typeof signatures.$inferSelect;
export type ShortcutRow = typeof shortcuts.$inferSelect;
type TemplateValues = Pick<TemplateRow, 'kind' | 'title' | 'body' | 'language' | 'tone' | 'length'>;

/**
 * Serializes one person's changes to their templates, signatures and shortcuts until the transaction ends (counts
 * against limits, positions, reordering): a transaction-scoped advisory lock on their id.
 */
export async function lockOwner(tx: Tx, userId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`templates:${userId}`}, 0))`);
}

export async function listTemplates(db: Db | Tx, userId: string) {
  return db
    .select()
    .from(templates)
    .where(eq(templates.userId, userId))
    .orderBy(asc(templates.position), asc(templates.createdAt), asc(templates.id));
}

export async function findTemplate(db: Db | Tx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)));
  return row;
}

export async function countOf(tx: Tx, table: typeof templates | typeof signatures | typeof shortcuts, userId: string) {
  const [row] = await tx.select({ n: count() }).from(table).where(eq(table.userId, userId));
  return row?.n ?? 0;
}

/** Adds templates after the person's last one, in the order given. */
export async function insertTemplates(tx: Tx, userId: string, values: TemplateValues[]) {
  if (!values.length) return [];
  const [last] = await tx
    .select({ max: sql<number | null>`max(${templates.position})` })
    .from(templates)
    .where(eq(templates.userId, userId));
  const start = (last?.max ?? -1) + 1;
  return tx
    .insert(templates)
    .values(values.map((v, i) => ({ ...v, userId, position: start + i })))
    .returning();
}

export async function updateTemplate(tx: Tx, userId: string, id: string, values: TemplateValues) {
  const [row] = await tx
    .update(templates)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .returning();
  return row;
}

export async function deleteTemplate(tx: Tx, userId: string, id: string) {
  const rows = await tx
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .returning({ id: templates.id });
  return rows.length;
}

/** Positions 0…n-1 in the order of `ids` (all of the person's templates). */
export async function setPositions(tx: Tx, userId: string, ids: string[]) {
  await tx.execute(sql`
    UPDATE templates t SET position = o.position - 1
      FROM unnest(${`{${ids.join(',')}}`}::uuid[]) WITH ORDINALITY AS o(id, position)
     WHERE t.id = o.id AND t.user_id = ${userId}::uuid`);
}

export async function listSignatures(db: Db | Tx, userId: string) {
  const rows = await db
    .select()
    .from(signatures)
    .where(eq(signatures.userId, userId))
    .orderBy(asc(signatures.createdAt), asc(signatures.id));
  const defaults = rows.length
    ? await db
        .select()
        .from(signatureDefaults)
        .where(
          and(
            eq(signatureDefaults.userId, userId),
            inArray(
              signatureDefaults.signatureId,
              rows.map((r) => r.id),
            ),
          ),
        )
    : [];
  return rows.map((row) => ({
    row,
    defaultFor: defaults
      .filter((d) => d.signatureId === row.id)
      .map((d) => d.scope)
      .sort(),
  }));
}

export async function insertSignature(tx: Tx, userId: string, values: { name: string; html: string }) {
  const [row] = await tx
    .insert(signatures)
    .values({ ...values, userId })
    .returning();
  return row!;
}

export async function updateSignature(tx: Tx, userId: string, id: string, values: { name: string; html: string }) {
  const [row] = await tx
    .update(signatures)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(signatures.id, id), eq(signatures.userId, userId)))
    .returning();
  return row;
}

export async function deleteSignature(tx: Tx, userId: string, id: string) {
  const rows = await tx
    .delete(signatures)
    .where(and(eq(signatures.id, id), eq(signatures.userId, userId)))
    .returning({ id: signatures.id });
  return rows.length;
}

/** The signature becomes the default exactly for `scopes` (taking each from any other signature of the person). */
export async function setDefaults(tx: Tx, userId: string, signatureId: string, scopes: string[]) {
  await tx
    .delete(signatureDefaults)
    .where(and(eq(signatureDefaults.userId, userId), eq(signatureDefaults.signatureId, signatureId)));
  if (!scopes.length) return;
  await tx
    .insert(signatureDefaults)
    .values(scopes.map((scope) => ({ userId, scope, signatureId })))
    .onConflictDoUpdate({
      target: [signatureDefaults.userId, signatureDefaults.scope],
      set: { signatureId: sql`excluded.signature_id` },
    });
}

export async function listShortcuts(db: Db | Tx, userId: string) {
  return db.select().from(shortcuts).where(eq(shortcuts.userId, userId)).orderBy(asc(shortcuts.key));
}

export async function findShortcutByKey(db: Db | Tx, userId: string, key: string) {
  const [row] = await db
    .select({ id: shortcuts.id })
    .from(shortcuts)
    .where(and(eq(shortcuts.userId, userId), eq(shortcuts.key, key)));
  return row;
}

export async function insertShortcuts(tx: Tx, userId: string, values: { key: string; text: string }[]) {
  if (!values.length) return [];
  return tx
    .insert(shortcuts)
    .values(values.map((v) => ({ ...v, userId })))
    .returning();
}

export async function updateShortcut(tx: Tx, userId: string, id: string, values: { key: string; text: string }) {
  const [row] = await tx
    .update(shortcuts)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(shortcuts.id, id), eq(shortcuts.userId, userId)))
    .returning();
  return row;
}

export async function deleteShortcut(tx: Tx, userId: string, id: string) {
  const rows = await tx
    .delete(shortcuts)
    .where(and(eq(shortcuts.id, id), eq(shortcuts.userId, userId)))
    .returning({ id: shortcuts.id });
  return rows.length;
}
