import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { jsonOf, jsonReader } from '../../db/prepared.js';
import { images, imageVersions, type ImageRow, type ImageVersionRow } from '../../db/schema/index.js';

export type { ImageRow, ImageVersionRow };
export type NewImage = Pick<ImageRow, 'source' | 'prompt' | 'model' | 'aspectRatio' | 'name'>;
export type NewVersion = Pick<
  ImageVersionRow,
  'parentId' | 'operation' | 'prompt' | 'model' | 'mediaType' | 'width' | 'height' | 'bytes' | 'fileKey' | 'thumbKey'
> & { id: string };

/**
 * Images with their first versions (an upload sent with an edit: the upload, then the edit made from it), unless the
 * person would then keep more than `max` images: 'full'. A lock on the person orders concurrent inserts, so the count
 * holds; the count and both inserts are then one statement (the lock's own statement comes first, so that the count
 * sees every insert committed while it waited). Each image comes back with its versions, oldest first.
 */
export async function insertImages(
  db: Db,
  userId: string,
  made: { image: NewImage; versions: NewVersion[] }[],
  max: number,
) {
  // Times in milliseconds, as the history's cursor carries them; an image's versions a millisecond apart, in order.
  const now = new Date();
  const at = (i: number) => new Date(now.getTime() + i);
  const ids = made.map(() => randomUUID());
  const newImages = made.map(
    ({ image }, k) =>
      sql`(${ids[k]}::uuid, ${image.source}::text, ${image.prompt}::text, ${image.model}::text, ${image.aspectRatio}::text, ${image.name}::text)`,
  );
  const newVersions = made.flatMap(({ versions }, k) =>
    versions.map(
      (v, i) =>
        sql`(${v.id}::uuid, ${ids[k]}::uuid, ${v.parentId}::uuid, ${v.operation}::text, ${v.prompt}::text, ${v.model}::text, ${v.mediaType}::text, ${v.width}::int, ${v.height}::int, ${v.bytes}::int, ${v.fileKey}::text, ${v.thumbKey}::text, ${at(i)}::timestamptz)`,
    ),
  );
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`images:${userId}`}, 0))`);
    const result = (await tx.execute(sql`
      WITH i AS (
        INSERT INTO images (id, user_id, source, prompt, model, aspect_ratio, name, created_at, updated_at)
        SELECT n.id, ${userId}::uuid, n.source, n.prompt, n.model, n.aspect_ratio, n.name, ${now}::timestamptz, ${now}::timestamptz
          FROM (VALUES ${sql.join(newImages, sql`, `)}) AS n(id, source, prompt, model, aspect_ratio, name)
         WHERE (SELECT count(*) FROM images WHERE user_id = ${userId}::uuid) + ${made.length}::int <= ${max}::int
        RETURNING *
      ), v AS (
        INSERT INTO image_versions (id, image_id, user_id, parent_id, operation, prompt, model, media_type, width, height,
                                    bytes, file_key, thumb_key, created_at)
        SELECT n.id, i.id, ${userId}::uuid, n.parent_id, n.operation, n.prompt, n.model, n.media_type, n.width, n.height,
               n.bytes, n.file_key, n.thumb_key, n.created_at
          FROM (VALUES ${sql.join(newVersions, sql`, `)})
               AS n(id, image_id, parent_id, operation, prompt, model, media_type, width, height, bytes, file_key,
                    thumb_key, created_at)
          JOIN i ON i.id = n.image_id
        RETURNING *
      )
      SELECT ${sql.raw(IMAGE_JSON)} AS image, ${sql.raw(VERSION_JSON)} AS version
        FROM i JOIN v ON v.image_id = i.id`)) as unknown as {
      rows: { image: Record<string, unknown>; version: Record<string, unknown> }[];
    };
    return result.rows;
  });
  if (!rows.length) return 'full' as const;
  const byImage = new Map<string, { image?: ImageRow; versions: ImageVersionRow[] }>(
    ids.map((id) => [id, { versions: [] }]),
  );
  for (const row of rows) {
    const entry = byImage.get(row.image.id as string)!;
    entry.image ??= readImage(row.image);
    entry.versions.push(readVersion(row.version));
  }
  return ids.map((id) => {
    const { image, versions } = byImage.get(id)!;
    return { image: image!, versions: versions.sort(oldestFirst) };
  });
}

// Rows of the statement above as JSON values: both drivers read them alike (timestamps as ISO strings, made Dates).
const IMAGE_KEYS = Object.keys(getTableColumns(images)) as (keyof ImageRow)[];
const VERSION_KEYS = Object.keys(getTableColumns(imageVersions)) as (keyof ImageVersionRow)[];
const IMAGE_JSON = jsonOf(images, 'i', IMAGE_KEYS);
const VERSION_JSON = jsonOf(imageVersions, 'v', VERSION_KEYS);
const readImage = jsonReader<ImageRow>(images, IMAGE_KEYS);
const readVersion = jsonReader<ImageVersionRow>(imageVersions, VERSION_KEYS);

/**
 * A new version of one of `userId`'s images, made from `parentId` (one of its versions), unless the image already
 * keeps `max` versions ('full'); null when the image or the parent is not theirs or is gone. Returns the version
 * with the image as it now is and all its versions, oldest first, so that nothing is read again for the answer.
 */
export async function insertVersion(db: Db, userId: string, imageId: string, version: NewVersion, max: number) {
  try {
    return await db.transaction(async (tx) => {
      const now = new Date();
      // The image's row lock, taken by this update, orders concurrent edits of one image: the versions read below
      // cannot change before the insert. Undone (rolled back) when nothing is inserted.
      const [image] = await tx
        .update(images)
        .set({ updatedAt: now })
        .where(and(eq(images.id, imageId), eq(images.userId, userId)))
        .returning();
      if (!image) return null;
      const versions = await versionsOf(tx, [imageId]);
      if (version.parentId && !versions.some((v) => v.id === version.parentId)) throw new Undone(null);
      if (versions.length >= max) throw new Undone('full');
      // After every version there is: an edit that waited for the lock (its clock read before) still comes last.
      const last = versions.at(-1)?.createdAt.getTime() ?? 0;
      const createdAt = new Date(Math.max(Date.now(), last + 1));
      const [row] = await tx
        .insert(imageVersions)
        .values({ ...version, imageId, userId, createdAt })
        .returning();
      return { image, version: row!, versions: [...versions, row!] };
    });
  } catch (error) {
    if (error instanceof Undone) return error.result;
    throw error;
  }
}

/** Thrown in a transaction to undo it, with what its caller answers instead. */
class Undone {
  constructor(readonly result: 'full' | null) {}
}

/** Versions in the order `versionsOf` reads them: by when they were made, then by id. */
const oldestFirst = (a: ImageVersionRow, b: ImageVersionRow) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function findImage(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(images)
    .where(and(eq(images.id, id), eq(images.userId, userId)));
  return row;
}

/** The versions of these images (all the caller's: the images were read with their owner), oldest first. */
export async function versionsOf(db: Tx, imageIds: string[]) {
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
