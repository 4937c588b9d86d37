import { index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** A person's images: generated from a prompt, or uploaded into the editor. Their states are `image_versions`. */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['generated', 'uploaded'] }).notNull(),
    prompt: text('prompt'),
    model: text('model'),
    aspectRatio: text('aspect_ratio'),
    /** A download name (without extension): the upload's, or one made from the prompt. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('images_user_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * One state of an image: the first, and each edit made from an earlier one (`parent_id`). Its bytes and thumbnail
 * are files in the storage (`file_key`, `thumb_key`); `user_id` is the image's owner, checked on every read.
 */
export const imageVersions = pgTable(
  'image_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => imageVersions.id, { onDelete: 'set null' }),
    operation: text('operation').notNull(),
    prompt: text('prompt'),
    model: text('model'),
    mediaType: text('media_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    fileKey: text('file_key').notNull(),
    thumbKey: text('thumb_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('image_versions_image_idx').on(t.imageId, t.createdAt), index('image_versions_user_idx').on(t.userId)],
);

export type ImageRow = typeof images.$inferSelect;
export type ImageVersionRow = typeof imageVersions.$inferSelect;
