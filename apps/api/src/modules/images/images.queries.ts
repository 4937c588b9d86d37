import { and, asc, count, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { images, imageVersions, type ImageRow, type ImageVersionRow } from '../../db/schema/index.js';

export type { ImageRow, ImageVersionRow };
export type NewImage = Pick<ImageRow, 'source' | 'prompt' | 'model' | 'aspectRatio' | 'name'>;
export type NewVersion = Pick<
  ImageVersionRow,
  'parentId' | 'operation' | 'prompt' | 'model' | 'mediaType' | 'width' | 'height' | 'bytes' | 'fileKey' | 'thumbKey'
> & { id: string };

/**
 * Images with their first versions, in one transaction (a generation makes several at once), unless the person would
 * then keep more than `max` images: 'full'. A lock on the person orders concurrent inserts, so the count holds.
 */
export async function insertImages(
  tx: Tx,
  userId: string,
  made: { image: NewImage; version: NewVersion }[],
  max: number,
) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`images:${userId}`}, 0))`);
  const [kept] = await tx.select({ n: count() }).from(images).where(eq(images.userId, userId));
  if ((kept?.n ?? 0) + made.length > max) return 'full' as const;
  const now = new Date();
  const rows = await tx
    .insert(images)
    // Times in milliseconds, as the history's cursor carries them.
    .values(made.map((m) => ({ ...m.image, userId, createdAt: now, updatedAt: now })))
    .returning();
  const versions = await tx
    .insert(imageVersions)
    .values(made.map((m, i) => ({ ...m.version, imageId: rows[i]!.id, userId, createdAt: now })))
    .returning();
  return rows.map((image, i) => ({ image, versions: [versions[i]!] }));
}

/**
 * A new version of one of `userId`'s images, made from `parentId` (one of its versions), unless the image already
 * keeps `max` versions; null when the image or the parent is not theirs or is gone.
 */
export async function insertVersion(db: Db, userId: string, imageId: string, version: NewVersion, max: number) {
  return db.transaction(async (tx) => {
    // The image's row lock orders concurrent edits of one image, so the count below cannot be passed by racing.
    const [image] = await tx
      .select({ id: images.id })
      .from(images)
      .where(and(eq(images.id, imageId), eq(images.userId, userId)))
      .for('update');
    if (!image) return null;
    if (version.parentId) {
      const [parent] = await tx
        .select({ id: imageVersions.id })
        .from(imageVersions)
        .where(and(eq(imageVersions.id, version.parentId), eq(imageVersions.imageId, imageId)));
      if (!parent) return null;
    }
    const [kept] = await tx.select({ n: count() }).from(imageVersions).where(eq(imageVersions.imageId, imageId));
    if ((kept?.n ?? 0) >= max) return 'full' as const;
    const [row] = await tx
      .insert(imageVersions)
      .values({ ...version, imageId, userId, createdAt: new Date() })
      .returning();
    await tx.update(images).set({ updatedAt: new Date() }).where(eq(images.id, imageId));
    return row!;
  });
}

export async function findImage(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(images)
    .where(and(eq(images.id, id), eq(images.userId, userId)));
  return row;
}

/** The versions of these images (all the caller's: the images were read with their owner), oldest first. */
export async function versionsOf(db: Db, imageIds: string[]) {
  if (!imageIds.length) return [];
  return db
    .select()
    .from(imageVersions)
    .where(inArray(imageVersions.imageId, imageIds))
    .orderBy(asc(imageVersions.createdAt), asc(imageVersions.id));
}

export async function findVersion(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(imageVersions)
    .where(and(eq(imageVersions.id, id), eq(imageVersions.userId, userId)));
  return row;
}

/** A page of `userId`'s images, newest first, after the (createdAt, id) of the cursor. */
export async function listImages(db: Db, userId: string, limit: number, after?: { createdAt: Date; id: string }) {
  return db
    .select()
    .from(images)
    .where(
      and(
        eq(images.userId, userId),
        after
          ? or(
              lt(images.createdAt, after.createdAt),
              and(eq(images.createdAt, after.createdAt), lt(images.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(images.createdAt), desc(images.id))
    .limit(limit);
}

/** Deletes one of `userId`'s images with its versions; returns the keys of their files (none when it was not theirs). */
export async function deleteImage(db: Db, userId: string, id: string) {
  return db.transaction(async (tx) => {
    // The image's row lock, as an edit takes it: a version added meanwhile is either seen here or not added at all.
    const [image] = await tx
      .select({ id: images.id })
      .from(images)
      .where(and(eq(images.id, id), eq(images.userId, userId)))
      .for('update');
    if (!image) return null;
    const files = await tx
      .select({ fileKey: imageVersions.fileKey, thumbKey: imageVersions.thumbKey })
      .from(imageVersions)
      .where(and(eq(imageVersions.imageId, id), eq(imageVersions.userId, userId)));
    const gone = await tx
      .delete(images)
      .where(and(eq(images.id, id), eq(images.userId, userId)))
      .returning({ id: images.id });
    return gone.length ? files.flatMap((f) => [f.fileKey, f.thumbKey]) : null;
  });
}

/** Which of these storage keys a version still refers to (for the sweep of orphaned files). */
export async function knownKeys(db: Db, keys: string[]) {
  if (!keys.length) return new Set<string>();
  const rows = await db
    .select({ fileKey: imageVersions.fileKey, thumbKey: imageVersions.thumbKey })
    .from(imageVersions)
    .where(or(inArray(imageVersions.fileKey, keys), inArray(imageVersions.thumbKey, keys)));
  return new Set(rows.flatMap((r) => [r.fileKey, r.thumbKey]));
}

/** The images' count per person, to hold a ceiling on what one account keeps. */
export async function countImages(db: Db, userId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(images)
    .where(eq(images.userId, userId));
  return row?.n ?? 0;
}
