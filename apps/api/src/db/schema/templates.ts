import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LENGTHS, TEMPLATE_KINDS, TONES, WRITING_LANGUAGES } from '@parley/contract';
import { users } from './users.js';

/** A person's reply templates (mail, message) and custom replies, in the order they chose (`position`). */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TEMPLATE_KINDS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    language: text('language', { enum: WRITING_LANGUAGES }),
    tone: text('tone', { enum: TONES }),
    length: text('length', { enum: LENGTHS }),
    position: integer('position').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('templates_user_idx').on(t.userId, t.position)],
);

/** A person's mail signatures: HTML cleaned when saved. */
export const signatures = pgTable(
  'signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    html: text('html').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signatures_user_idx').on(t.userId, t.createdAt)],
);

/** Which signature is the default where (a site, or a mail account's address): one per person and place. */
export const signatureDefaults = pgTable(
  'signature_defaults',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    signatureId: uuid('signature_id')
      .notNull()
      .references(() => signatures.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope] }), index('signature_defaults_signature_idx').on(t.signatureId)],
);

/** A person's shortcuts: a key typed after the trigger (`;thx`) and the text it becomes. Keys are unique per person. */
export const shortcuts = pgTable(
  'shortcuts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shortcuts_user_key_idx').on(t.userId, t.key)],
);
