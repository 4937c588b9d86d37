import { and, count, desc, eq, inArray, lt, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkedinDrafts } from '../../db/schema/index.js';

export type DraftRow = typeof linkedinDrafts.$inferSelect;

/** A draft being written: its row holds the post (and its place in the caps) before the model is called. */
export const CLAIM_TEXT = '';

export async function existingUrns(db: Db | Tx, userId: string, urns: string[]) {
  if (!urns.length) return [];
  return db
    .select()
    .from(linkedinDrafts)
    .where(and(eq(linkedinDrafts.userId, userId), inArray(linkedinDrafts.postUrn, urns)));
}

export async function countOn(tx: Tx, userId: string, day: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(linkedinDrafts)
    .where(and(eq(linkedinDrafts.userId, userId), eq(linkedinDrafts.day, day)));
  return row?.n ?? 0;
}

export async function countForKeywordOn(tx: Tx, userId: string, keywordId: string, day: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(linkedinDrafts)
    .where(
      and(eq(linkedinDrafts.userId, userId), eq(linkedinDrafts.keywordId, keywordId), eq(linkedinDrafts.day, day)),
    );
  return row?.n ?? 0;
}

export async function countForProfileOn(tx: Tx, userId: string, profileUrl: string, day: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(linkedinDrafts)
    .where(
      and(eq(linkedinDrafts.userId, userId), eq(linkedinDrafts.profileUrl, profileUrl), eq(linkedinDrafts.day, day)),
    );
  return row?.n ?? 0;
}

type ClaimValues = Pick<
  DraftRow,
  'postUrn' | 'postUrl' | 'authorName' | 'postExcerpt' | 'keywordId' | 'keyword' | 'profileUrl' | 'day'
>;

/** Holds the post for a draft (text empty until written); null when the person already has a draft of it. */
export async function claim(tx: Tx, userId: string, values: ClaimValues, now: Date) {
  const [row] = await tx
    .insert(linkedinDrafts)
    .values({ ...values, userId, text: CLAIM_TEXT, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function fill(db: Db, id: string, text: string, flags: string[], now: Date) {
  const [row] = await db
    .update(linkedinDrafts)
    .set({ text, flags, updatedAt: now })
    .where(eq(linkedinDrafts.id, id))
    .returning();
  return row!;
}

export async function release(db: Db, id: string) {
  await db.delete(linkedinDrafts).where(and(eq(linkedinDrafts.id, id), eq(linkedinDrafts.text, CLAIM_TEXT)));
}

/**
 * Housekeeping before a read: drafts still pending after 7 days are dismissed, and posts held for a draft that was
 * never written (a process stopped mid-call) are let go after `claimTtlMs`.
 */
export async function tidy(db: Db, userId: string, now: Date, claimTtlMs: number) {
  await db
    .update(linkedinDrafts)
    .set({ status: 'dismissed', updatedAt: now })
    .where(
      and(
        eq(linkedinDrafts.userId, userId),
        eq(linkedinDrafts.status, 'pending'),
        ne(linkedinDrafts.text, CLAIM_TEXT),
        lt(linkedinDrafts.createdAt, new Date(now.getTime() - 7 * 86_400_000)),
      ),
    );
  await db
    .delete(linkedinDrafts)
    .where(
      and(
        eq(linkedinDrafts.userId, userId),
        eq(linkedinDrafts.text, CLAIM_TEXT),
        lt(linkedinDrafts.updatedAt, new Date(now.getTime() - claimTtlMs)),
      ),
    );
}

export async function list(
  db: Db,
  userId: string,
  filter: { status?: DraftRow['status'] | undefined; postUrn?: string | undefined },
  limit: number,
) {
  return db
    .select()
    .from(linkedinDrafts)
    .where(
      and(
        eq(linkedinDrafts.userId, userId),
        ne(linkedinDrafts.text, CLAIM_TEXT),
        filter.status ? eq(linkedinDrafts.status, filter.status) : undefined,
        filter.postUrn ? eq(linkedinDrafts.postUrn, filter.postUrn) : undefined,
      ),
    )
    .orderBy(desc(linkedinDrafts.createdAt), desc(linkedinDrafts.id))
    .limit(limit);
}

export async function update(
  db: Db,
  userId: string,
  id: string,
  values: { text?: string; status?: DraftRow['status'] },
  now: Date,
) {
  const [row] = await db
    .update(linkedinDrafts)
    .set({ ...values, updatedAt: now })
    .where(and(eq(linkedinDrafts.id, id), eq(linkedinDrafts.userId, userId), ne(linkedinDrafts.text, CLAIM_TEXT)))
    .returning();
  return row;
}
