import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { run, statement } from '../../db/prepared.js';
import {
  apiKeys,
  chatMessages,
  conversations,
  documents,
  type MessageMeta,
  type StoredPart,
} from '../../db/schema/index.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Every owned row is fetched with its owner: someone else's conversation is simply not found. */
export async function findConversation(db: Db, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .limit(1);
  return row;
}

export async function insertConversation(db: Db, values: { userId: string; title: string; model: string }) {
  const [row] = await db.insert(conversations).values(values).returning();
  return row!;
}

const newConversationStatement = statement(
  'new_conversation_with_message',
  `WITH c AS (
     INSERT INTO conversations (id, user_id, title, model) VALUES ($1::uuid, $2::uuid, $3, $4) RETURNING id
   )
   INSERT INTO chat_messages (id, conversation_id, position, role, parts, meta)
   SELECT $5::uuid, c.id, 0, 'user', $6::jsonb, '{}'::jsonb FROM c`,
);

/**
 * A new conversation and its first (user) message in ONE statement: one round trip instead of two. Both ids are
 * chosen by the caller.
 */
export async function insertConversationWithMessage(
  db: Db,
  conversation: { id: string; userId: string; title: string; model: string },
  message: { id: string; parts: StoredPart[] },
) {
  await run(db, newConversationStatement, [
    conversation.id,
    conversation.userId,
    conversation.title,
    conversation.model,
    message.id,
    JSON.stringify(message.parts),
  ]);
}

const finishTurnStatement = statement(
  'finish_turn',
  `WITH m AS (
     INSERT INTO chat_messages (id, conversation_id, position, role, parts, meta)
     SELECT $2::uuid, $1::uuid, coalesce(max(position), -1) + 1, 'assistant', $3::jsonb, $4::jsonb
       FROM chat_messages WHERE conversation_id = $1::uuid
   )
   UPDATE conversations SET model = $5, updated_at = now() WHERE id = $1::uuid`,
);
const touchStatement = statement(
  'touch_conversation',
  'UPDATE conversations SET model = $2, updated_at = now() WHERE id = $1::uuid',
);

/**
 * The end of a chat turn, in one statement: the answer appended (when there is one to keep) and the conversation
 * marked as used now, with the model of this turn.
 */
export async function finishTurn(
  db: Db,
  conversationId: string,
  model: string,
  answer: { id: string; parts: StoredPart[]; meta: MessageMeta } | null,
) {
  if (!answer) return void (await run(db, touchStatement, [conversationId, model]));
  await run(db, finishTurnStatement, [
    conversationId,
    answer.id,
    JSON.stringify(answer.parts),
    JSON.stringify(answer.meta),
    model,
  ]);
}

const renameStatement = statement(
  'rename_conversation',
  'UPDATE conversations SET title = $2, updated_at = now() WHERE id = $1::uuid',
);

export async function renameConversation(db: Db, id: string, title: string) {
  await run(db, renameStatement, [id, title]);
}

export async function listConversations(db: Db, userId: string, options: { q?: string | undefined; limit: number }) {
  const where = options.q
    ? and(
        eq(conversations.userId, userId),
        sql`(${conversations.title} ILIKE ${`%${escapeLike(options.q)}%`} OR EXISTS (
          SELECT 1 FROM ${chatMessages} m WHERE m.conversation_id = ${conversations.id}
             AND m.parts::text ILIKE ${`%${escapeLike(options.q)}%`}))`,
      )
    : eq(conversations.userId, userId);
  return db.select().from(conversations).where(where).orderBy(desc(conversations.updatedAt)).limit(options.limit);
}

function escapeLike(s: string) {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function deleteConversation(db: Db, id: string, userId: string) {
  const rows = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function deleteAllConversations(db: Db, userId: string) {
  const rows = await db
    .delete(conversations)
    .where(eq(conversations.userId, userId))
    .returning({ id: conversations.id });
  return rows.length;
}

export async function listMessages(db: Db, conversationId: string) {
  return db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.position));
}

/** Appends at the next position; the unique (conversation, position) index refuses a racing duplicate. */
export async function appendMessage(
  db: Db,
  values: { id?: string; conversationId: string; role: 'user' | 'assistant'; parts: StoredPart[]; meta: MessageMeta },
) {
  const [row] = await db
    .insert(chatMessages)
    .values({
      ...values,
      position: sql`(SELECT coalesce(max(position), -1) + 1 FROM chat_messages WHERE conversation_id = ${values.conversationId})`,
    })
    .returning();
  return row!;
}

export async function updateMessage(db: Db, id: string, patch: { parts?: StoredPart[]; meta?: MessageMeta }) {
  await db.update(chatMessages).set(patch).where(eq(chatMessages.id, id));
}

/** Drops messages from `position` on (edit-and-resend, regenerate). */
export async function truncateFrom(db: Db, conversationId: string, position: number) {
  await db
    .delete(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId), sql`${chatMessages.position} >= ${position}`));
}

export async function insertDocument(db: Db, values: typeof documents.$inferInsert) {
  const [row] = await db.insert(documents).values(values).returning();
  return row!;
}

export async function findDocument(db: Db, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.userId, userId)))
    .limit(1);
  return row;
}

export async function documentsByIds(db: Db, ids: string[], userId: string) {
  if (!ids.length) return [];
  return db
    .select()
    .from(documents)
    .where(and(inArray(documents.id, ids), eq(documents.userId, userId)));
}

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
