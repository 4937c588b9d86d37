import type { Attachment, ChatHistory, ChatMessage, ChatSummary } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Account } from '../accounts/index.js';
import type { FileStore } from '../storage/index.js';
import * as q from './chat.queries.js';
import type { Histories } from './turn/histories.js';

function toAttachment(doc: q.DocumentRow): Attachment {
  return {
    id: doc.id,
    kind: doc.kind,
    name: doc.name,
    mediaType: doc.mediaType,
    size: doc.size,
    ...(doc.url ? { url: doc.url } : {}),
    ...(doc.pages && doc.kind === 'pdf' ? { pageCount: doc.pages.length } : {}),
  };
}

function summaryView(c: q.ConversationRow): ChatSummary {
  return {
    chatHistoryId: c.id,
    title: c.title,
    model: c.model,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

function messageView(row: q.MessageRow, docs: Map<string, q.DocumentRow>): ChatMessage {
  return {
    id: row.id,
    role: row.role,
    text: row.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n'),
    attachments: row.parts.flatMap((p) =>
      p.type === 'attachment' && docs.has(p.documentId) ? [toAttachment(docs.get(p.documentId)!)] : [],
    ),
    model: row.meta.model ?? null,
    sources: row.meta.sources ?? [],
    citedPages: row.meta.citedPages ?? [],
    status: row.meta.status ?? 'complete',
    createdAt: row.createdAt.toISOString(),
  };
}

/** Conversations: their history, their attachments, and their deletion with everything they own. */
export function createChatService({ db, files, histories }: { db: Db; files: FileStore; histories: Histories }) {
  files.claim((keys) => q.knownStorageKeys(db, keys));
  return {
    async list(user: Account, query: { q?: string | undefined; limit: number }): Promise<ChatSummary[]> {
      const rows = await q.listConversations(db, user.id, query);
      return rows.map(summaryView);
    },

    /** The person's own name for a conversation; someone else's conversation is not found. */
    async rename(user: Account, id: string, title: string): Promise<ChatSummary> {
      const row = await q.renameOwnedConversation(db, { id, userId: user.id, title });
      if (!row) throw new NotFoundError('conversation');
      return summaryView(row);
    },

    async get(user: Account, id: string): Promise<ChatHistory> {
      const conversation = await q.findConversation(db, id, user.id);
      if (!conversation) throw new NotFoundError('conversation');
      const rows = await q.listMessages(db, id);
      const ids = rows.flatMap((m) => m.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : [])));
      const docs = new Map((await q.documentsByIds(db, ids, user.id)).map((d) => [d.id, d]));
      return {
        chatHistoryId: conversation.id,
        title: conversation.title,
        model: conversation.model,
        createdAt: conversation.createdAt.toISOString(),
        updatedAt: conversation.updatedAt.toISOString(),
        messages: rows.map((m) => messageView(m, docs)),
      };
    },

    /** A conversation with its documents and their files. */
    async remove(user: Account, id: string) {
      const { count, storageKeys } = await q.deleteConversations(db, user.id, id);
      if (!count) throw new NotFoundError('conversation');
      histories.drop(id);
      await files.removeAll(storageKeys);
    },

    /** Every conversation of the person, with their documents and files. */
    async removeAll(user: Account) {
      const { count, storageKeys } = await q.deleteConversations(db, user.id);
      histories.dropOwner(user.id);
      await files.removeAll(storageKeys);
      return count;
    },

    /** An attachment's bytes, for its owner only. */
    async file(user: Account, id: string) {
      const doc = await q.findDocument(db, id, user.id);
      if (!doc?.storageKey) throw new NotFoundError('file');
      return { bytes: await files.get(doc.storageKey), mediaType: doc.mediaType, name: doc.name };
    },

    /**
     * Removes what no conversation can reach any more, once it is older than `olderThanSeconds` (so that a turn
     * still being written is never touched): documents no message refers to, and files no document refers to (a
     * crash between writing a file and its row, or between deleting a row and its file). Returns how many files went.
     */
    async sweepOrphans(olderThanSeconds: number) {
      const unreferenced = await files.removeAll(await q.deleteUnreferencedDocuments(db, olderThanSeconds));
      const before = new Date(Date.now() - olderThanSeconds * 1000);
      return unreferenced + (await files.sweep(before));
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
