import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export type StoredPart = { type: 'text'; text: string } | { type: 'attachment'; documentId: string };

export type MessageMeta = {
  model?: string;
  sources?: { n: number; title: string; url: string }[];
  citedPages?: number[];
  status?: 'complete' | 'stopped' | 'failed';
  usage?: { inputTokens?: number; outputTokens?: number };
};

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    model: text('model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The turn answering in this conversation now, and until when it may: a conversation answers one turn at a time.
     * The time is the way out when the server that held the turn stopped before giving it back.
     */
    answeringTurn: uuid('answering_turn'),
    answeringUntil: timestamp('answering_until', { withTimezone: true }),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    parts: jsonb('parts').$type<StoredPart[]>().notNull(),
    meta: jsonb('meta').$type<MessageMeta>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_messages_position_unique').on(t.conversationId, t.position)],
);

/** Attachments and fetched sources (images, PDFs with their page texts, web pages, video transcripts). */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['image', 'pdf', 'page', 'video'] }).notNull(),
    name: text('name').notNull(),
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key'),
    url: text('url'),
    pages: jsonb('pages').$type<{ page: number; text: string }[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('documents_conversation_idx').on(t.conversationId)],
);

/** Users' own provider keys, encrypted at rest (AES-256-GCM). */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    keyCiphertext: text('key_ciphertext').notNull(),
    keyHint: text('key_hint').notNull(),
    baseUrl: text('base_url'),
    modelName: text('model_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_user_provider_unique').on(t.userId, t.provider)],
);
