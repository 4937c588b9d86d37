import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * The LinkedIn assistant's tables (module `linkedin`). Every row carries its owner's `user_id`, checked on every read.
 */

/** A person's LinkedIn connection: the OAuth access token, encrypted at rest (AES-256-GCM), and its expiry. */
export const linkedinConnections = pgTable('linkedin_connections', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The member's id (OpenID Connect `sub`); posts are authored as urn:li:person:<memberId>. */
  memberId: text('member_id').notNull(),
  name: text('name'),
  email: text('email'),
  picture: text('picture'),
  /** iv.tag.ciphertext, base64url; the key is derived from the server's secret. */
  accessTokenEnc: text('access_token_enc').notNull(),
  scope: text('scope').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** OAuth `state` values handed out: stored hashed, single-use, bound to the person who started, short-lived. */
export const linkedinOauthStates = pgTable(
  'linkedin_oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('linkedin_oauth_states_user_idx').on(t.userId)],
);

/** Settings and AI customization (spec §3 LinkedIn settings): one row per person, the values as one JSON document. */
export const linkedinSettings = pgTable('linkedin_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** linkedinSettingsSchema's output. */
  settings: jsonb('settings').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Keywords to engage on, with their avoid and include lists. */
export const linkedinKeywords = pgTable(
  'linkedin_keywords',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyword: text('keyword').notNull(),
    avoid: jsonb('avoid').$type<string[]>().notNull().default([]),
    include: jsonb('include').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('linkedin_keywords_user_keyword_idx').on(t.userId, sql`lower(${t.keyword})`)],
);

/** Profiles followed to engage on their posts. */
export const linkedinProfiles = pgTable(
  'linkedin_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    name: text('name'),
    active: boolean('active').notNull().default(true),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('linkedin_profiles_user_url_idx').on(t.userId, t.url)],
);

/**
 * Drafted comments waiting for the person (pending), used by them (accepted) or put aside (dismissed). One draft per
 * person and post. `day` is the person's calendar day it was made on, for the daily caps.
 */
export const linkedinDrafts = pgTable(
  'linkedin_drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postUrn: text('post_urn').notNull(),
    postUrl: text('post_url'),
    authorName: text('author_name').notNull().default(''),
    postExcerpt: text('post_excerpt').notNull().default(''),
    keywordId: uuid('keyword_id').references(() => linkedinKeywords.id, { onDelete: 'set null' }),
    keyword: text('keyword'),
    profileUrl: text('profile_url'),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'dismissed'] })
      .notNull()
      .default('pending'),
    flags: jsonb('flags').$type<string[]>().notNull().default([]),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('linkedin_drafts_user_post_idx').on(t.userId, t.postUrn),
    index('linkedin_drafts_user_day_idx').on(t.userId, t.day),
    index('linkedin_drafts_user_status_idx').on(t.userId, t.status, t.createdAt),
  ],
);

/**
 * Automations (spec §3, §7): a person's scheduled post (kind `post`) and the daily engagement runs. Status Pending →
 * Completed or Error. A post is published at most once per run: `dedupe_key` is written (with `attempt_started_at`)
 * before LinkedIn is called, and an unclear outcome is settled by reading back, never by calling again blindly.
 */
export const automations = pgTable(
  'automations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['post', 'aiComment', 'reply', 'customReply'] }).notNull(),
    status: text('status', { enum: ['Pending', 'Completed', 'Error'] })
      .notNull()
      .default('Pending'),
    dailyRun: boolean('daily_run').notNull().default(false),
    text: text('text'),
    keywordId: uuid('keyword_id').references(() => linkedinKeywords.id, { onDelete: 'cascade' }),
    /** When it runs next (null: it will not). */
    runAt: timestamp('run_at', { withTimezone: true }),
    /** The local time it was scheduled for, and the zone, so repeats keep the wall-clock time across DST. */
    localTime: text('local_time'),
    timezone: text('timezone'),
    repeat: text('repeat', { enum: ['none', 'daily', 'weekly'] })
      .notNull()
      .default('none'),
    visibility: text('visibility', { enum: ['PUBLIC', 'CONNECTIONS'] })
      .notNull()
      .default('PUBLIC'),
    /** Set before the call to LinkedIn (one per run); a worker that finds it set reads back instead of posting. */
    dedupeKey: text('dedupe_key'),
    /**
     * When the run with `dedupe_key` began. Left without a key on a post in Error whose last run may have been
     * published (never confirmed, never found): resumed, that post is looked for on LinkedIn before it is sent again.
     */
    attemptStartedAt: timestamp('attempt_started_at', { withTimezone: true }),
    /** Who holds the run (a worker's id) until `lease_until`. */
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    postUrn: text('post_urn'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    runs: integer('runs').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('automations_user_idx').on(t.userId, t.createdAt),
    index('automations_due_idx').on(t.status, t.runAt),
    uniqueIndex('automations_dedupe_idx').on(t.dedupeKey),
  ],
);

/** Stats readings (spec §3): one value per person, metric and day; a later reading of the same day replaces it. */
export const linkedinStats = pgTable(
  'linkedin_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    day: date('day').notNull(),
    value: doublePrecision('value').notNull(),
    source: text('source', { enum: ['page', 'import'] }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.metric, t.day] })],
);

export type LinkedinConnectionRow = typeof linkedinConnections.$inferSelect;
export type LinkedinKeywordRow = typeof linkedinKeywords.$inferSelect;
export type LinkedinProfileRow = typeof linkedinProfiles.$inferSelect;
export type LinkedinDraftRow = typeof linkedinDrafts.$inferSelect;
export type AutomationRow = typeof automations.$inferSelect;
export type LinkedinStatRow = typeof linkedinStats.$inferSelect;
