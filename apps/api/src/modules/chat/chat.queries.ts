import { cleanLine, cleanText } from '@parley/contract';
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { columnsOf, jsonOf, jsonReader, run, statement } from '../../db/prepared.js';
import { chatMessages, conversations, documents, type MessageMeta, type StoredPart } from '../../db/schema/index.js';
import { sessionReserveWith } from '../billing/index.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;

/**
 * Text from outside (a model's answer, a fetched page, a PDF, search results) is cleaned where it is stored: the
 * database refuses NUL in text and unpaired surrogates in jsonb (see @parley/contract's text.ts).
 */
export const storableParts = (parts: StoredPart[]): StoredPart[] =>
  parts.map((p) => (p.type === 'text' ? { ...p, text: cleanText(p.text) } : p));
export const storableMeta = (meta: MessageMeta): MessageMeta =>
  meta.sources
    ? { ...meta, sources: meta.sources.map((s) => ({ ...s, title: cleanLine(s.title), url: cleanLine(s.url) })) }
    : meta;

/** Every owned row is fetched with its owner: someone else's conversation is simply not found. */
export async function findConversation(db: Db, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .limit(1);
  return row;
}

/**
 * A conversation answers one turn at a time: the turn that answers holds it (`answering_turn`) until its answer is
 * stored, or until `seconds` have passed, the way out when the server holding it stopped in the middle of a turn.
 */
export type Answering = { turn: string; seconds: number };

/** A new conversation, held by the turn that makes it (see `Answering`). */
export async function insertConversation(
  db: Db,
  values: { userId: string; title: string; model: string },
  answering: Answering,
) {
  const [row] = await db
    .insert(conversations)
    .values({
      ...values,
      title: cleanLine(values.title),
      answeringTurn: answering.turn,
      answeringUntil: sql`now() + make_interval(secs => ${answering.seconds})`,
    })
    .returning();
  return row!;
}

const newConversationStatement = statement(
  'new_conversation_with_message',
  `WITH c AS (
     INSERT INTO conversations (id, user_id, title, model, answering_turn, answering_until)
     VALUES ($1::uuid, $2::uuid, $3, $4, $7::uuid, now() + make_interval(secs => $8::int)) RETURNING id
   )
   INSERT INTO chat_messages (id, conversation_id, position, role, parts, meta)
   SELECT $5::uuid, c.id, 0, 'user', $6::jsonb, '{}'::jsonb FROM c`,
);

/**
 * A new conversation and its first (user) message in ONE statement: one round trip instead of two. Both ids are
 * chosen by the caller. The conversation is held by the turn that makes it (see `Answering`).
 */
export async function insertConversationWithMessage(
  db: Db,
  conversation: { id: string; userId: string; title: string; model: string },
  message: { id: string; parts: StoredPart[] },
  answering: Answering,
) {
  await run(db, newConversationStatement, [
    conversation.id,
    conversation.userId,
    cleanLine(conversation.title),
    conversation.model,
    message.id,
    JSON.stringify(storableParts(message.parts)),
    answering.turn,
    answering.seconds,
  ]);
}

/** The columns of a message (all of them), as a follow-up turn's claim reads them, as JSON. */
const MESSAGE_KEYS = ['id', 'conversationId', 'position', 'role', 'parts', 'meta', 'createdAt'] as const;
const readMessage = jsonReader<MessageRow>(chatMessages, MESSAGE_KEYS);
const CONVERSATION_KEYS = Object.keys(getTableColumns(conversations)) as (keyof ConversationRow & string)[];
const readConversation = jsonReader<ConversationRow>(conversations, CONVERSATION_KEYS);

/** The conversation `$5`, taken by turn `$6` for `$7` seconds if the live session's owner has it and it is free. */
const CLAIMED = `claimed AS (
       UPDATE conversations SET answering_turn = $6::uuid, answering_until = now() + make_interval(secs => $7::int)
        WHERE id = $5::uuid AND user_id = (SELECT uid FROM s WHERE live)
          AND (answering_until IS NULL OR answering_until <= now())
       RETURNING *
     )`;

/** What a claim adds to the row of its statement (see `CLAIM_WITH_RESERVATION`). */
export type ClaimColumns = { conversation: Record<string, unknown> | null; messages: Record<string, unknown>[] | null };

/**
 * A follow-up turn takes its conversation in the statement that checks the session and reserves the turn's credit
 * (billing's `sessionReserveWith`, `$5` the conversation, `$6` the turn, `$7` the hold's seconds; see `Answering`), and
 * reads its messages there: one round trip before the provider is called, where a claim made first took one of its
 * own (measured: bench/chat-stream.ts, decision 012).
 *
 * - Only the owner of a live session takes it, and nothing is reserved unless it was taken: a turn sent while another
 *   is answering is refused having reserved nothing.
 * - The messages are read in the snapshot that found the conversation free, so they hold everything the turn before
 *   wrote: a turn lets go of its conversation in the statement that stores its answer, or after its last write. A
 *   claim whose snapshot still sees the conversation held takes nothing (the update does not wait for that turn to
 *   finish), where a read made beside the claim could miss an answer stored in between.
 */
export const CLAIM_WITH_RESERVATION = sessionReserveWith<ClaimColumns>('claim_reserve', {
  ctes: `${CLAIMED}, history AS (
       SELECT coalesce(json_agg(${jsonOf(chatMessages, 'm', MESSAGE_KEYS)} ORDER BY m.position), '[]'::json) AS messages
         FROM chat_messages m WHERE m.conversation_id = (SELECT id FROM claimed)
     )`,
  // The history (one row, an aggregate) is named here so that it is read before the wallet is locked, not while the
  // wallet, which the other members of an organization spend from too, stays locked.
  gate: 'EXISTS (SELECT 1 FROM claimed) AND EXISTS (SELECT 1 FROM history)',
  columns: `(SELECT ${jsonOf(conversations, 'c', CONVERSATION_KEYS)} FROM claimed c) AS "conversation",
       (SELECT messages FROM history) AS "messages"`,
});

/** The values `CLAIM_WITH_RESERVATION` and `CLAIM_KNOWN_WITH_RESERVATION` take after the reservation's. */
export const claimValues = (id: string, answering: Answering) => [id, answering.turn, answering.seconds];

export type Claimed = { conversation: ConversationRow; messages: MessageRow[] };

/** The conversation a `CLAIM_WITH_RESERVATION` row took, with its messages; undefined when it took none. */
export function readClaimed(row: ClaimColumns | undefined): Claimed | undefined {
  if (!row?.conversation) return undefined;
  return { conversation: readConversation(row.conversation), messages: (row.messages ?? []).map(readMessage) };
}

/**
 * A conversation's messages by id and position, `id:position` joined by commas in order of position (`''` when none):
 * what a turn that knows the messages already checks them against (see `CLAIM_KNOWN_WITH_RESERVATION`).
 */
export const historyKey = (messages: Pick<MessageRow, 'id' | 'position'>[]) =>
  messages.map((m) => `${m.id}:${m.position}`).join(',');

/** What `CLAIM_KNOWN_WITH_RESERVATION` adds to the row of its statement. */
export type KnownClaimColumns = { taken: boolean | null; historyKey: string | null };

/**
 * `CLAIM_WITH_RESERVATION` for a turn that knows the conversation's messages from the turn before (see
 * `createHistories`): it takes the conversation the same way, and returns its messages' `historyKey` instead of the
 * messages, read in the same snapshot, so that the turn goes ahead only if it knew them all as they are.
 */
export const CLAIM_KNOWN_WITH_RESERVATION = sessionReserveWith<KnownClaimColumns>('claim_known_reserve', {
  ctes: `${CLAIMED}, history AS (
       SELECT coalesce(string_agg(m.id::text || ':' || m.position::text, ',' ORDER BY m.position), '') AS key
         FROM chat_messages m WHERE m.conversation_id = (SELECT id FROM claimed)
     )`,
  gate: 'EXISTS (SELECT 1 FROM claimed) AND EXISTS (SELECT 1 FROM history)',
  columns: `EXISTS (SELECT 1 FROM claimed) AS "taken", (SELECT key FROM history) AS "historyKey"`,
});

/**
 * Why a claim found nothing: the owner's conversation exists, so another turn holds it (the database's
 * clock said so; it alone decides), or it is not theirs.
 */
export async function conversationHeld(db: Db, id: string, userId: string) {
  return Boolean(await findConversation(db, id, userId));
}

/** Gives the conversation back, unless another turn took it since (its hold had run out). */
export async function releaseConversation(db: Db, id: string, turn: string) {
  await db
    .update(conversations)
    .set({ answeringTurn: null, answeringUntil: null })
    .where(and(eq(conversations.id, id), eq(conversations.answeringTurn, turn)));
}

// The conversation is given back by the turn that holds it, in the same statement (a hold that ran out and was taken
// by another turn stays with that one).
const RELEASE = `answering_turn = CASE WHEN answering_turn = $TURN::uuid THEN NULL ELSE answering_turn END,
     answering_until = CASE WHEN answering_turn = $TURN::uuid THEN NULL ELSE answering_until END`;
const finishTurnStatement = statement(
  'finish_turn',
  `WITH m AS (
     INSERT INTO chat_messages (id, conversation_id, position, role, parts, meta)
     SELECT $2::uuid, $1::uuid, coalesce(max(position), -1) + 1, 'assistant', $3::jsonb, $4::jsonb
       FROM chat_messages WHERE conversation_id = $1::uuid
   )
   UPDATE conversations SET model = $5, updated_at = now(), ${RELEASE.replaceAll('$TURN', '$6')} WHERE id = $1::uuid`,
);
const touchStatement = statement(
  'touch_conversation',
  `UPDATE conversations SET model = $2, updated_at = now(), ${RELEASE.replaceAll('$TURN', '$3')} WHERE id = $1::uuid`,
);

/**
 * The end of a chat turn, in one statement: the answer appended (when there is one to keep), the conversation marked
 * as used now, with the model of this turn, and given back by the turn (`answering`: see `Answering`).
 */
/** A turn's answer, as `finishTurn` stores it. */
export type Answer = { id: string; parts: StoredPart[]; meta: MessageMeta };

export async function finishTurn(
  db: Db,
  conversationId: string,
  model: string,
  answer: Answer | null,
  answering: string,
) {
  if (!answer) return void (await run(db, touchStatement, [conversationId, model, answering]));
  await run(db, finishTurnStatement, [
    conversationId,
    answer.id,
    JSON.stringify(storableParts(answer.parts)),
    JSON.stringify(storableMeta(answer.meta)),
    model,
    answering,
  ]);
}

const nameStatement = statement(
  'name_conversation',
  'UPDATE conversations SET title = $2, updated_at = now() WHERE id = $1::uuid AND title = $3',
);

/**
 * Gives a new conversation its generated title, unless it was renamed meanwhile: only a title still equal to the
 * provisional one (the question's opening) is replaced.
 */
export async function nameConversation(db: Db, id: string, title: string, provisional: string) {
  await run(db, nameStatement, [id, cleanLine(title), cleanLine(provisional)]);
}

/**
 * A person renaming their own conversation. Its place in the history (`updated_at`) stays: a new name is not new
 * activity. Returns the row, or nothing when the conversation is not theirs.
 */
export async function renameOwnedConversation(db: Db, values: { id: string; userId: string; title: string }) {
  const [row] = await db
    .update(conversations)
    .set({ title: cleanLine(values.title) })
    .where(and(eq(conversations.id, values.id), eq(conversations.userId, values.userId)))
    .returning();
  return row;
}

/**
 * A person's conversations, newest first; `q` finds the words in a title or in what was written in a message (its
 * text parts only: the parts' JSON, with its keys, quotes and escapes, is not what anyone typed).
 */
export async function listConversations(db: Db, userId: string, options: { q?: string | undefined; limit: number }) {
  const pattern = options.q ? `%${escapeLike(options.q)}%` : null;
  const where = pattern
    ? and(
        eq(conversations.userId, userId),
        sql`(${conversations.title} ILIKE ${pattern} OR EXISTS (
          SELECT 1 FROM ${chatMessages} m, jsonb_array_elements(m.parts) part
           WHERE m.conversation_id = ${conversations.id}
             AND part->>'type' = 'text' AND part->>'text' ILIKE ${pattern}))`,
      )
    : eq(conversations.userId, userId);
  return db.select().from(conversations).where(where).orderBy(desc(conversations.updatedAt)).limit(options.limit);
}

function escapeLike(s: string) {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Deletes one conversation (`id`), or all of a user's, with their documents, in one transaction. Returns how many
 * conversations went and the storage keys of their files: the caller removes the files once this has committed
 * (a file left by a crash in between is found by the sweep of orphaned files).
 */
export async function deleteConversations(db: Db, userId: string, id?: string) {
  return db.transaction(async (tx) => {
    const docs = await tx
      .delete(documents)
      .where(
        and(
          eq(documents.userId, userId),
          id ? eq(documents.conversationId, id) : sql`${documents.conversationId} IS NOT NULL`,
        ),
      )
      .returning({ storageKey: documents.storageKey });
    const gone = await tx
      .delete(conversations)
      .where(and(eq(conversations.userId, userId), id ? eq(conversations.id, id) : undefined))
      .returning({ id: conversations.id });
    return { count: gone.length, storageKeys: docs.flatMap((d) => (d.storageKey ? [d.storageKey] : [])) };
  });
}

/**
 * Documents no message refers to, older than `olderThanSeconds`: what a turn that stopped between writing its files
 * and its question left, and the documents of messages dropped by an edit or a regeneration. Deletes them and
 * returns the storage keys of their files.
 */
export async function deleteUnreferencedDocuments(db: Db, olderThanSeconds: number) {
  const rows = await db
    .delete(documents)
    .where(
      sql`${documents.createdAt} < now() - make_interval(secs => ${olderThanSeconds}) AND NOT EXISTS (
        SELECT 1 FROM ${chatMessages} m WHERE m.conversation_id = ${documents.conversationId}
           AND m.parts @> jsonb_build_array(jsonb_build_object('type', 'attachment', 'documentId', ${documents.id}::text)))`,
    )
    .returning({ storageKey: documents.storageKey });
  return rows.flatMap((r) => (r.storageKey ? [r.storageKey] : []));
}

/** Which of these storage keys belong to a document. */
export async function knownStorageKeys(db: Db, keys: string[]) {
  if (!keys.length) return new Set<string>();
  const rows = await db
    .select({ storageKey: documents.storageKey })
    .from(documents)
    .where(inArray(documents.storageKey, keys));
  return new Set(rows.map((r) => r.storageKey!));
}

/** Deletes a user's documents by id; returns the storage keys of their files. */
export async function deleteDocuments(db: Db, ids: string[], userId: string) {
  if (!ids.length) return [];
  const rows = await db
    .delete(documents)
    .where(and(inArray(documents.id, ids), eq(documents.userId, userId)))
    .returning({ storageKey: documents.storageKey });
  return rows.flatMap((r) => (r.storageKey ? [r.storageKey] : []));
}

export async function listMessages(db: Db, conversationId: string) {
  return db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.position));
}

const appendStatement = statement<MessageRow>(
  'append_message',
  `INSERT INTO chat_messages (id, conversation_id, position, role, parts, meta)
   SELECT coalesce($1::uuid, gen_random_uuid()), $2::uuid, coalesce(max(position), -1) + 1, $3, $4::jsonb, $5::jsonb
     FROM chat_messages WHERE conversation_id = $2::uuid
   RETURNING ${columnsOf(chatMessages, 'chat_messages')}`,
);

/**
 * Appends at the next position (a prepared statement: a follow-up turn writes its question while the provider's
 * answer starts). Only the turn holding the conversation writes to it (see `Answering`); the unique
 * (conversation, position) index refuses a racing duplicate all the same.
 */
export async function appendMessage(
  db: Db,
  values: { id?: string; conversationId: string; role: 'user' | 'assistant'; parts: StoredPart[]; meta: MessageMeta },
) {
  const [row] = await run(db, appendStatement, [
    values.id ?? null,
    values.conversationId,
    values.role,
    JSON.stringify(storableParts(values.parts)),
    JSON.stringify(storableMeta(values.meta)),
  ]);
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

export async function insertDocument(db: Db, values: NewDocument) {
  const clean = {
    ...values,
    name: cleanLine(values.name),
    url: values.url ? cleanLine(values.url) : values.url,
    pages: values.pages ? values.pages.map((p) => ({ page: p.page, text: cleanText(p.text) })) : values.pages,
  };
  const [row] = await db.insert(documents).values(clean).returning();
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
