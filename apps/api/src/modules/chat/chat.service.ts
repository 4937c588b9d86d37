import { randomUUID } from 'node:crypto';
import {
  type chatRequestSchema,
  type Attachment,
  type ChatHistory,
  type ChatMessage,
  type ChatSummary,
  type Source,
  type UiLanguage,
} from '@parley/contract';
import { translate } from '@parley/i18n/server';
import {
  generateText,
  streamText,
  type ModelMessage,
  type TextStreamPart,
  type ToolSet,
  type UIMessageChunk,
} from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { MessageMeta, StoredPart } from '../../db/schema/index.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import type { ModelRegistry, ResolvedModel } from '../../providers/ai/registry.js';
import type { Storage } from '../../providers/storage/index.js';
import type { CreditsService } from '../billing/index.js';
import type { UserRow } from '../auth/index.js';
import * as q from './chat.queries.js';

/** What a log line may say about a provider failure: never the request body (it holds the person's words). */
function describeError(error: unknown) {
  const e = error as {
    name?: string;
    message?: string;
    statusCode?: number;
    lastError?: { statusCode?: number; message?: string };
  };
  return {
    name: e?.name,
    message: e?.lastError?.message ?? e?.message,
    status: e?.lastError?.statusCode ?? e?.statusCode,
  };
}
import { buildContext, type BuildDocumentContext } from './context.js';
import type { KeysService } from './keys.service.js';

export type Upload = { bytes: Buffer; name: string; declaredType: string };
export type ChatInput = z.output<typeof chatRequestSchema>;

/** Everything from outside that a turn may need, passed in so tests and production wire their own. */
export type ChatTools = {
  checkAttachment: (file: { bytes: Uint8Array; declaredName?: string; declaredType?: string }) => {
    kind: 'image' | 'pdf';
    mediaType: string;
  };
  checkAttachmentCount: (count: number) => void;
  extractPdf: (
    bytes: Uint8Array,
  ) => Promise<{ pageCount: number; pages: { page: number; text: string }[]; title?: string }>;
  buildDocumentContext: BuildDocumentContext;
  readPage: (url: string) => Promise<{ url: string; title: string; text: string }>;
  parseYouTubeVideoId: (url: string) => string | null;
  fetchTranscript: (videoId: string) => Promise<{
    videoId: string;
    title: string;
    language: string;
    text: string;
    segments: { start: number; duration: number; text: string }[];
  }>;
  search:
    | ((
        query: string,
        opts: { limit: number; language?: string },
      ) => Promise<{ title: string; url: string; snippet: string }[]>)
    | null;
};

type Deps = {
  db: Db;
  registry: ModelRegistry;
  keys: KeysService;
  credits: CreditsService;
  storage: Storage;
  tools: ChatTools;
  log: FastifyBaseLogger;
  timeoutMs: number;
};

const TITLE_MAX = 80;
const pageSize = 3000;

/** Splits a long text (page or transcript) into numbered chunks so retrieval can pick the relevant ones. */
function paginate(text: string) {
  const pages: { page: number; text: string }[] = [];
  for (let i = 0; i < text.length; i += pageSize)
    pages.push({ page: pages.length + 1, text: text.slice(i, i + pageSize) });
  return pages;
}

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

/**
 * One provider stream part as the UI message chunk that `result.toUIMessageStream({ sendStart: false, onError,
 * messageMetadata })` would send for it (same fields, same order), without that method's three extra web stream
 * stages per chunk. Chat turns use no tools, so tool parts (and raw, source and start parts) send nothing.
 */
function toUiChunk(
  part: TextStreamPart<ToolSet>,
  errorText: string,
  finishMetadata: Record<string, unknown>,
): UIMessageChunk | undefined {
  const meta = part.type !== 'error' && 'providerMetadata' in part && part.providerMetadata != null;
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return meta
        ? { type: part.type, id: part.id, delta: part.text, providerMetadata: part.providerMetadata! }
        : { type: part.type, id: part.id, delta: part.text };
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return meta
        ? { type: part.type, id: part.id, providerMetadata: part.providerMetadata! }
        : { type: part.type, id: part.id };
    case 'file':
      return {
        type: 'file',
        mediaType: part.file.mediaType,
        url: `data:${part.file.mediaType};base64,${part.file.base64}`,
        ...(part.providerMetadata != null ? { providerMetadata: part.providerMetadata } : {}),
      };
    case 'error':
      return { type: 'error', errorText };
    case 'start-step':
    case 'finish-step':
      return { type: part.type };
    case 'finish':
      return { type: 'finish', finishReason: part.finishReason, messageMetadata: finishMetadata };
    case 'abort':
      return part;
    default:
      return undefined;
  }
}

export function createChatService({ db, registry, keys, credits, storage, tools, log, timeoutMs }: Deps) {
  async function resolveModel(user: UserRow, modelId: ChatInput['model']) {
    const ownKeys = await keys.ownKeys(user.id);
    const resolved = registry.resolve(modelId, ownKeys);
    if (resolved.keySource === 'own') {
      const own = ownKeys.find((k) => k.provider === resolved.info.provider)!;
      await keys.checkBaseUrl(own);
    }
    return resolved;
  }

  async function storeUploads(
    user: UserRow,
    conversationId: string,
    checked: { file: Upload; kind: { kind: 'image' | 'pdf'; mediaType: string } }[],
  ) {
    const docs: q.DocumentRow[] = [];
    for (const { file, kind } of checked) {
      const pages = kind.kind === 'pdf' ? (await tools.extractPdf(file.bytes)).pages : null;
      const id = randomUUID();
      const storageKey = `${user.id}/${id}`;
      await storage.put(storageKey, file.bytes);
      docs.push(
        await q.insertDocument(db, {
          id,
          userId: user.id,
          conversationId,
          kind: kind.kind,
          name: file.name.slice(0, 200) || (kind.kind === 'pdf' ? 'document.pdf' : 'image'),
          mediaType: kind.mediaType,
          size: file.bytes.length,
          storageKey,
          pages,
        }),
      );
    }
    return docs;
  }

  async function fetchUrl(user: UserRow, conversationId: string, url: string) {
    const videoId = tools.parseYouTubeVideoId(url);
    if (videoId) {
      const t = await tools.fetchTranscript(videoId);
      return q.insertDocument(db, {
        userId: user.id,
        conversationId,
        kind: 'video',
        name: t.title || url,
        mediaType: 'text/plain',
        size: t.text.length,
        url,
        pages: paginate(t.text),
      });
    }
    const page = await tools.readPage(url);
    return q.insertDocument(db, {
      userId: user.id,
      conversationId,
      kind: 'page',
      name: page.title || page.url,
      mediaType: 'text/html',
      size: page.text.length,
      url: page.url,
      pages: paginate(page.text),
    });
  }

  async function loadImages(docs: q.DocumentRow[]) {
    const images = new Map<string, { bytes: Uint8Array; mediaType: string }>();
    for (const doc of docs.filter((d) => d.kind === 'image' && d.storageKey).slice(-4)) {
      images.set(doc.id, { bytes: await storage.get(doc.storageKey!), mediaType: doc.mediaType });
    }
    return images;
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

  return {
    /**
     * Validates and prepares one turn (history, attachments, sources), reserves its credit, and returns the
     * stream of the answer. Nothing is charged if the provider fails before any output.
     */
    async startTurn(user: UserRow, input: ChatInput, files: Upload[], lang: UiLanguage) {
      // 1. Everything that can be refused without writing anything: model, key, conversation, files, credits.
      // Independent lookups run together: every round trip here delays the first token.
      const [resolved, existing] = await Promise.all([
        resolveModel(user, input.model),
        input.chatId ? q.findConversation(db, input.chatId, user.id) : Promise.resolve(undefined),
      ]);
      if (input.chatId && !existing) throw new NotFoundError('conversation');
      tools.checkAttachmentCount(files.length);
      const checked = files.map((f) => ({
        file: f,
        kind: tools.checkAttachment({ bytes: f.bytes, declaredName: f.name, declaredType: f.declaredType }),
      }));
      if (checked.some((c) => c.kind.kind === 'image') && !resolved.info.capabilities.vision) {
        throw new DomainError('MODEL_NO_VISION', { model: resolved.label });
      }
      if (input.webSearch && !tools.search) throw new DomainError('SEARCH_UNAVAILABLE');
      const reservation = await credits.reserve(user.id, resolved.info.tier, 'chat', {
        metered: resolved.keySource === 'server',
      });

      // 2. Preparation that writes; if it fails, the credit goes back and a conversation created for it goes away.
      let createdId: string | null = null;
      let prepared;
      try {
        prepared = await prepareTurn();
      } catch (error) {
        await reservation.refund();
        if (createdId) await q.deleteConversation(db, createdId, user.id).catch(() => undefined);
        throw error;
      }
      const { conversation, isNew, question, userMessage, context, modelMessages, sources } = prepared;

      async function prepareTurn() {
        const isNew = !existing;
        const newConversation = { userId: user.id, title: input.text.slice(0, TITLE_MAX) || '…', model: input.model };
        // A new chat without documents is written together with its first message, in one statement, below.
        const deferInsert = isNew && checked.length === 0 && !input.url && !input.page;
        const conversation: { id: string } = existing ?? {
          id: deferInsert ? randomUUID() : (await q.insertConversation(db, newConversation)).id,
        };
        if (isNew) createdId = conversation.id;

        let messages = isNew ? [] : await q.listMessages(db, conversation.id);
        let question = input.text;
        let keepAttachments: string[] = [];
        if (input.regenerate) {
          const lastUser = [...messages].reverse().find((m) => m.role === 'user');
          if (!lastUser) throw new DomainError('BAD_REQUEST');
          question = lastUser.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
          keepAttachments = lastUser.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : []));
          await q.truncateFrom(db, conversation.id, lastUser.position);
          messages = messages.filter((m) => m.position < lastUser.position);
        } else if (input.editMessageId) {
          const edited = messages.find((m) => m.id === input.editMessageId && m.role === 'user');
          if (!edited) throw new NotFoundError('message');
          keepAttachments = edited.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : []));
          await q.truncateFrom(db, conversation.id, edited.position);
          messages = messages.filter((m) => m.position < edited.position);
        }

        const uploaded = await storeUploads(user, conversation.id, checked);
        const fetched = input.url ? [await fetchUrl(user, conversation.id, input.url)] : [];
        if (input.page) {
          fetched.push(
            await q.insertDocument(db, {
              userId: user.id,
              conversationId: conversation.id,
              kind: 'page',
              name: input.page.title || input.page.url,
              mediaType: 'text/plain',
              size: input.page.text.length,
              url: input.page.url,
              pages: paginate(input.page.text),
            }),
          );
        }
        const attachmentIds = [...keepAttachments, ...uploaded.map((d) => d.id), ...fetched.map((d) => d.id)];

        const sources: (Source & { snippet: string })[] = [];
        if (input.webSearch && tools.search) {
          const results = await tools.search(question, { limit: 5 });
          results.forEach((r, i) => sources.push({ n: i + 1, title: r.title, url: r.url, snippet: r.snippet }));
        }

        // Documents of the whole conversation stay in context for follow-up questions.
        const earlierIds = messages.flatMap((m) =>
          m.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : [])),
        );
        const allDocs = await q.documentsByIds(db, [...new Set([...earlierIds, ...attachmentIds])], user.id);
        const docsById = new Map(allDocs.map((d) => [d.id, d]));
        if (!resolved.info.capabilities.vision && attachmentIds.some((id) => docsById.get(id)?.kind === 'image')) {
          throw new DomainError('MODEL_NO_VISION', { model: resolved.label });
        }
        const images = resolved.info.capabilities.vision ? await loadImages(allDocs) : new Map();

        const userParts: StoredPart[] = [
          { type: 'text', text: question },
          ...attachmentIds.map((documentId) => ({ type: 'attachment' as const, documentId })),
        ];
        let userMessage: { id: string };
        if (deferInsert) {
          userMessage = { id: randomUUID() };
          await q.insertConversationWithMessage(
            db,
            { id: conversation.id, ...newConversation },
            { id: userMessage.id, parts: userParts },
          );
        } else {
          userMessage = await q.appendMessage(db, {
            conversationId: conversation.id,
            role: 'user',
            parts: userParts,
            meta: {},
          });
        }

        const context = buildContext({
          now: new Date(),
          contextWindow: resolved.info.contextWindow,
          vision: resolved.info.capabilities.vision,
          question,
          history: messages,
          documents: allDocs,
          images,
          sources,
          buildDocumentContext: tools.buildDocumentContext,
        });
        const currentImages = attachmentIds.flatMap((id) => (images.has(id) ? [images.get(id)!] : []));
        const modelMessages: ModelMessage[] = [
          ...context.history,
          currentImages.length
            ? {
                role: 'user',
                content: [
                  { type: 'text', text: question },
                  ...currentImages.map((i) => ({ type: 'image' as const, image: i.bytes, mediaType: i.mediaType })),
                ],
              }
            : { role: 'user', content: question },
        ];
        return { conversation, isNew, question, userMessage, context, modelMessages, sources };
      }

      const publicSources = sources.map(({ n, title, url }) => ({ n, title, url }));
      const assistantId = randomUUID();

      const clientAbort = new AbortController();
      const providerAbort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        providerAbort.abort(new Error('provider timeout'));
      }, timeoutMs);
      clientAbort.signal.addEventListener('abort', () => providerAbort.abort(clientAbort.signal.reason));

      let text = '';
      let settling: Promise<void> | null = null;
      let usage: MessageMeta['usage'];
      // Exactly once; a later caller waits for the same settlement.
      const finalize = (status: 'complete' | 'stopped' | 'failed') => (settling ??= settle(status));
      const settle = async (status: 'complete' | 'stopped' | 'failed') => {
        clearTimeout(timer);
        try {
          // Independent writes, so they run together: the response ends only once the turn is settled.
          await Promise.all([
            text.length > 0 ? reservation.charge() : reservation.refund(),
            text.length > 0 || status === 'complete'
              ? q.appendMessage(db, {
                  conversationId: conversation.id,
                  id: assistantId,
                  role: 'assistant',
                  parts: [{ type: 'text', text }],
                  meta: {
                    model: input.model,
                    sources: publicSources,
                    citedPages: context.citedPages,
                    status,
                    ...(usage ? { usage } : {}),
                  },
                })
              : undefined,
            q.touchConversation(db, conversation.id, { model: input.model }),
          ]);
          if (isNew && status === 'complete') void nameConversation(conversation.id, question, text, resolved);
        } catch (error) {
          log.error({ err: error }, 'could not settle a chat turn');
        }
      };

      const result = streamText({
        model: resolved.model,
        system: context.system,
        messages: modelMessages,
        abortSignal: providerAbort.signal,
        maxRetries: 1,
        onChunk: ({ chunk }) => {
          if (chunk.type === 'text-delta') text += chunk.text;
        },
        onFinish: async (event) => {
          usage = { inputTokens: event.totalUsage.inputTokens, outputTokens: event.totalUsage.outputTokens };
          await finalize('complete');
        },
        onError: async ({ error }) => {
          if (clientAbort.signal.aborted) return finalize('stopped');
          log.warn({ provider: describeError(error) }, 'provider failed during a chat turn');
          await finalize('failed');
        },
        onAbort: async () => {
          await finalize(timedOut ? 'failed' : 'stopped');
        },
      });

      const errorText = translate(lang, 'api', 'errors.PROVIDER_ERROR');
      const timeoutText = translate(lang, 'api', 'errors.FETCH_TIMEOUT');
      const finishMetadata = { citedPages: context.citedPages };

      /**
       * The answer as UI message chunks, in order. It never throws: a failure becomes a localized error chunk after
       * the turn is settled. The caller writes the chunks to the client and calls `abort` if the client goes away.
       */
      async function* chunks(): AsyncGenerator<UIMessageChunk, void, undefined> {
        try {
          yield {
            type: 'start',
            messageId: assistantId,
            messageMetadata: {
              chatId: conversation.id,
              userMessageId: userMessage.id,
              model: input.model,
              modelLabel: resolved.label,
              keySource: resolved.keySource,
            },
          };
          for (const s of publicSources)
            yield { type: 'source-url', sourceId: `source-${s.n}`, url: s.url, title: s.title };
          for await (const part of result.fullStream) {
            const chunk = toUiChunk(part, errorText, finishMetadata);
            if (!chunk) continue;
            if (chunk.type === 'abort' && timedOut) {
              yield { type: 'error', errorText: timeoutText };
              continue;
            }
            yield chunk;
          }
          await finalize(timedOut ? 'failed' : 'complete');
        } catch (error) {
          const stopped = clientAbort.signal.aborted;
          if (!stopped) log.warn({ provider: describeError(error) }, 'chat stream ended with an error');
          await finalize(stopped ? 'stopped' : 'failed');
          if (!stopped) yield { type: 'error', errorText };
        }
      }

      return {
        chunks: chunks(),
        chatId: conversation.id,
        /** The client left: stop the provider and keep what was said so far. */
        abort: () => {
          if (clientAbort.signal.aborted) return;
          clientAbort.abort(new Error('client went away'));
          void finalize('stopped');
        },
      };
    },

    async list(user: UserRow, query: { q?: string | undefined; limit: number }): Promise<ChatSummary[]> {
      const rows = await q.listConversations(db, user.id, query);
      return rows.map((c) => ({
        chatHistoryId: c.id,
        title: c.title,
        model: c.model,
        createdAt: c.createdAt.toISOString(),
        updatedAt: c.updatedAt.toISOString(),
      }));
    },

    async get(user: UserRow, id: string): Promise<ChatHistory> {
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

    async remove(user: UserRow, id: string) {
      const conversation = await q.findConversation(db, id, user.id);
      if (!conversation) throw new NotFoundError('conversation');
      const docs = await q.documentsByIds(
        db,
        (await q.listMessages(db, id)).flatMap((m) =>
          m.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : [])),
        ),
        user.id,
      );
      await q.deleteConversation(db, id, user.id);
      await Promise.allSettled(docs.filter((d) => d.storageKey).map((d) => storage.remove(d.storageKey!)));
    },

    async removeAll(user: UserRow) {
      return q.deleteAllConversations(db, user.id);
    },

    /** An attachment's bytes, for its owner only. */
    async file(user: UserRow, id: string) {
      const doc = await q.findDocument(db, id, user.id);
      if (!doc?.storageKey) throw new NotFoundError('file');
      return { bytes: await storage.get(doc.storageKey), mediaType: doc.mediaType, name: doc.name };
    },

    availability: async (user: UserRow) => registry.availability(await keys.ownKeys(user.id)),
  };

  /** A short generated title for a new conversation; on any failure the question's opening stays the title. */
  async function nameConversation(id: string, question: string, answer: string, resolved: ResolvedModel) {
    try {
      const { text } = await generateText({
        model: resolved.model,
        system:
          'Write a short conversation title (at most 6 words) for this exchange, in the language of the question. Answer with the title only, no quotes.',
        prompt: `Question: ${question.slice(0, 2000)}\n\nAnswer: ${answer.slice(0, 2000)}`,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(15_000),
      });
      const title = text
        .replace(/^["'«\s]+|["'»\s]+$/g, '')
        .split('\n')[0]!
        .slice(0, TITLE_MAX);
      if (title) await q.touchConversation(db, id, { title });
    } catch (error) {
      log.info({ provider: describeError(error) }, 'could not generate a conversation title');
    }
  }
}

export type ChatService = ReturnType<typeof createChatService>;
