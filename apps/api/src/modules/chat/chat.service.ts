import { randomUUID } from 'node:crypto';
import {
  type chatRequestSchema,
  type Attachment,
  type ChatHistory,
  type ChatMessage,
  type ChatSummary,
  modelInfo,
  type Source,
  type UiLanguage,
} from '@parley/contract';
import { translate } from '@parley/i18n/server';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ModelMessage, UIMessageChunk } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { insertOnce } from '../../db/unavailable.js';
import type { MessageMeta, StoredPart } from '../../db/schema/index.js';
import { safeFileName } from '../../lib/documents/file-name.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { createLimiter } from '../../lib/limiter.js';
import type { ModelRegistry, ResolvedModel } from '../../providers/ai/registry.js';
import { holdRequests } from '../../providers/ai/provider-fetch.js';
import { completeText, openProviderStream, toProviderPrompt } from '../../providers/ai/stream.js';
import type { Storage } from '../../providers/storage/index.js';
import { NOT_METERED, type CreditsService, type Reservation } from '../billing/index.js';
import type { PendingCaller, UserRow } from '../auth/index.js';
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
/** A page or a video read for a turn, not yet stored. */
type NewDocument = Pick<q.NewDocument, 'kind' | 'name' | 'mediaType' | 'size' | 'url' | 'pages'>;
export type ChatInput = z.output<typeof chatRequestSchema>;

/** Everything from outside that a turn may need, passed in so tests and production wire their own. */
export type ChatTools = {
  /** The file as it may be kept: of a supported kind, within limits, an image without its metadata. */
  checkAttachment: (file: { bytes: Uint8Array; declaredName?: string; declaredType?: string }) => {
    kind: 'image' | 'pdf';
    mediaType: string;
    bytes: Buffer;
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
const noop = () => undefined;
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

export function createChatService({ db, registry, keys, credits, storage, tools, log, timeoutMs }: Deps) {
  const starting = createLimiter(16);
  async function resolveModel(userId: string, modelId: ChatInput['model']) {
    const ownKeys = await keys.ownKeys(userId);
    const resolved = registry.resolve(modelId, ownKeys);
    if (resolved.keySource === 'own') {
      const own = ownKeys.find((k) => k.provider === resolved.info.provider)!;
      await keys.checkBaseUrl(own);
    }
    return resolved;
  }

  /** A page or a video's transcript, read (nothing is written yet). */
  async function readUrl(url: string): Promise<NewDocument> {
    const videoId = tools.parseYouTubeVideoId(url);
    if (videoId) {
      const t = await tools.fetchTranscript(videoId);
      return {
        kind: 'video',
        name: t.title || url,
        mediaType: 'text/plain',
        size: t.text.length,
        url,
        pages: paginate(t.text),
      };
    }
    const page = await tools.readPage(url);
    return {
      kind: 'page',
      name: page.title || page.url,
      mediaType: 'text/html',
      size: page.text.length,
      url: page.url,
      pages: paginate(page.text),
    };
  }

  /** Files whose rows are gone; one that cannot be removed now is left to the sweep of orphaned files. */
  async function removeFiles(keys: string[]) {
    const results = await Promise.allSettled(keys.map((key) => storage.remove(key)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed) log.warn({ failed }, 'could not remove some files; the sweep of orphaned files will');
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

  /** One turn, once admitted (see `startTurn`). */
  async function beginTurn(caller: PendingCaller, input: ChatInput, files: Upload[], lang: UiLanguage) {
    // 1. Everything that can be refused without writing anything: files, vision, search. (An unauthenticated
    // caller hears 401 / 409 rather than what was wrong with the request.)
    const info = modelInfo(input.model);
    let checked: { file: Upload; kind: { kind: 'image' | 'pdf'; mediaType: string } }[];
    try {
      tools.checkAttachmentCount(files.length);
      checked = files.map((f) => {
        const { bytes, ...kind } = tools.checkAttachment({
          bytes: f.bytes,
          declaredName: f.name,
          declaredType: f.declaredType,
        });
        const fallback = kind.kind === 'pdf' ? 'document.pdf' : 'image';
        return { file: { ...f, bytes, name: safeFileName(f.name, fallback) }, kind };
      });
      if (checked.some((c) => c.kind.kind === 'image') && !info.capabilities.vision) {
        throw new DomainError('MODEL_NO_VISION', { model: registry.label(input.model) });
      }
      if (input.webSearch && !tools.search) throw new DomainError('SEARCH_UNAVAILABLE');
    } catch (error) {
      await caller.user();
      throw error;
    }

    // 2. The session is checked and the credit reserved in one statement (`authorized`), before knowing whose key
    // pays (with the person's own key it goes back at once). Every round trip here delays the first token. When the
    // token's owner is known from an earlier request, the turn is prepared meanwhile, up to the provider request
    // itself, which is held until the check has passed and the credit is reserved (`admitted`, see holdRequests);
    // only a turn that writes before calling the provider (documents, a page, a web search) waits for them first.
    const authorized = caller.userWith((tokenHash, now) =>
      credits.reserveForSession(tokenHash, info.tier, 'chat', now),
    );
    authorized.catch(noop); // awaited below, on every path
    // node-postgres's pool sends a query on the next tick: let it go out before the work below, which it overlaps.
    await new Promise((resolve) => process.nextTick(resolve));
    const withDocuments = checked.length > 0 || Boolean(input.url) || Boolean(input.page);
    const writesFirst = withDocuments || Boolean(input.webSearch);
    const lookups = (userId: string) =>
      Promise.allSettled([
        resolveModel(userId, input.model),
        input.chatId ? q.findConversation(db, input.chatId, userId) : Promise.resolve(undefined),
        input.chatId ? q.listMessages(db, input.chatId) : Promise.resolve([]),
      ]);
    const hint = caller.ownerHint;
    let ownerId: string;
    let found: ReturnType<typeof lookups>;
    if (hint && !writesFirst) {
      ownerId = hint;
      found = lookups(hint);
    } else {
      const early = hint ? lookups(hint) : null;
      ownerId = (await authorized).user.id;
      found = early && hint === ownerId ? early : lookups(ownerId);
    }

    // Whatever fails before the provider is called: an unauthenticated caller hears that first; otherwise the
    // credit goes back (at most once, whoever asks) and a conversation created for the turn goes away.
    let createdId: string | null = null;
    /** Documents and files this turn has written so far; they go away with a turn that does not go ahead. */
    const written = { documentIds: [] as string[], storageKeys: [] as string[] };
    const undo = async (error: unknown): Promise<never> => {
      const { result } = await authorized;
      await result.reservation?.refund();
      await (
        createdId ? q.deleteConversations(db, ownerId, createdId) : q.deleteDocuments(db, written.documentIds, ownerId)
      ).catch((e: unknown) => log.error({ err: e }, 'could not undo a refused chat turn'));
      await removeFiles(written.storageKeys);
      throw error;
    };

    let resolved: ResolvedModel;
    let conversationRow: q.ConversationRow | undefined;
    let earlier: q.MessageRow[];
    try {
      const [keysResult, existing, messages] = await found;
      if (keysResult.status === 'rejected') throw keysResult.reason;
      if (existing.status === 'rejected') throw existing.reason;
      if (messages.status === 'rejected') throw messages.reason;
      if (input.chatId && !existing.value) throw new NotFoundError('conversation');
      resolved = keysResult.value;
      conversationRow = existing.value;
      earlier = messages.value;
    } catch (error) {
      return undo(error);
    }

    /** The turn may call the provider: the session is the owner's, and the credit is reserved or not needed. */
    const admitted = authorized.then(({ user, result: { reservation: reserved } }) => {
      if (user.id !== ownerId) throw new DomainError('UNAUTHENTICATED'); // a token never changes owner
      if (resolved.keySource === 'own') {
        // Not metered: the credit goes back while the turn goes on; the turn settles only once it is back.
        return { user, reservation: NOT_METERED, unreserved: reserved ? reserved.refund() : null };
      }
      if (!reserved) throw new DomainError('OUT_OF_CREDITS');
      return { user, reservation: reserved, unreserved: null };
    });
    admitted.catch(noop); // awaited below, on every path
    if (writesFirst) await admitted;

    // 3. Preparation. A turn without documents writes nothing here: its messages are written while the provider is
    // already answering.
    let prepared;
    try {
      prepared = await prepareTurn();
    } catch (error) {
      return undo(error);
    }
    const { conversation, isNew, question, userMessage, context, modelMessages, sources, persist } = prepared;

    async function prepareTurn() {
      const isNew = !conversationRow;
      const newConversation = { userId: ownerId, title: input.text.slice(0, TITLE_MAX) || '…', model: input.model };
      // A new chat without documents is written together with its first message, in one statement, below.
      const deferInsert = isNew && !withDocuments;

      let messages = isNew ? [] : earlier;
      let question = input.text;
      let keepAttachments: string[] = [];
      let truncateAt: number | null = null;
      if (input.regenerate) {
        const lastUser = [...messages].reverse().find((m) => m.role === 'user');
        if (!lastUser) throw new DomainError('BAD_REQUEST');
        question = lastUser.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
        keepAttachments = lastUser.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : []));
        truncateAt = lastUser.position;
        messages = messages.filter((m) => m.position < lastUser.position);
      } else if (input.editMessageId) {
        const edited = messages.find((m) => m.id === input.editMessageId && m.role === 'user');
        if (!edited) throw new NotFoundError('message');
        keepAttachments = edited.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : []));
        truncateAt = edited.position;
        messages = messages.filter((m) => m.position < edited.position);
      }

      // Everything that can fail without writing comes first: the PDFs' text, the page or video, the web search,
      // and what the documents kept from earlier are. Only then are files and rows written.
      const pdfPages = await Promise.all(
        checked.map((c) => (c.kind.kind === 'pdf' ? tools.extractPdf(c.file.bytes).then((r) => r.pages) : null)),
      );
      const fetched: NewDocument[] = input.url ? [await readUrl(input.url)] : [];
      if (input.page) {
        fetched.push({
          kind: 'page',
          name: input.page.title || input.page.url,
          mediaType: 'text/plain',
          size: input.page.text.length,
          url: input.page.url,
          pages: paginate(input.page.text),
        });
      }
      const sources: (Source & { snippet: string })[] = [];
      if (input.webSearch && tools.search) {
        const results = await tools.search(question, { limit: 5 });
        results.forEach((r, i) => sources.push({ n: i + 1, title: r.title, url: r.url, snippet: r.snippet }));
      }
      // Documents of the whole conversation stay in context for follow-up questions.
      const earlierIds = messages.flatMap((m) =>
        m.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : [])),
      );
      const keptIds = [...new Set([...earlierIds, ...keepAttachments])];
      const keptDocs = keptIds.length ? await q.documentsByIds(db, keptIds, ownerId) : [];
      const isImage = new Set(keptDocs.filter((d) => d.kind === 'image').map((d) => d.id));
      if (!resolved.info.capabilities.vision && keepAttachments.some((id) => isImage.has(id))) {
        throw new DomainError('MODEL_NO_VISION', { model: resolved.label });
      }

      // The writes. A failure from here on removes what was written (`undo`).
      const conversation: { id: string } = conversationRow ?? {
        id: deferInsert ? randomUUID() : (await q.insertConversation(db, newConversation)).id,
      };
      if (isNew) createdId = conversation.id;
      const uploaded: q.DocumentRow[] = [];
      for (const [i, { file, kind }] of checked.entries()) {
        const id = randomUUID();
        const storageKey = `${ownerId}/${id}`;
        written.storageKeys.push(storageKey);
        await storage.put(storageKey, file.bytes);
        written.documentIds.push(id);
        uploaded.push(
          await q.insertDocument(db, {
            id,
            userId: ownerId,
            conversationId: conversation.id,
            kind: kind.kind,
            name: file.name,
            mediaType: kind.mediaType,
            size: file.bytes.length,
            storageKey,
            pages: pdfPages[i] ?? null,
          }),
        );
      }
      for (const doc of fetched) {
        const row = await q.insertDocument(db, { ...doc, userId: ownerId, conversationId: conversation.id });
        written.documentIds.push(row.id);
        uploaded.push(row);
      }
      const attachmentIds = [...keepAttachments, ...uploaded.map((d) => d.id)];
      const allDocs = [...keptDocs, ...uploaded];
      const images = resolved.info.capabilities.vision ? await loadImages(allDocs) : new Map();

      const userParts: StoredPart[] = [
        { type: 'text', text: question },
        ...attachmentIds.map((documentId) => ({ type: 'attachment' as const, documentId })),
      ];
      const userMessage = { id: randomUUID() };
      const writeUserMessage = async () => {
        if (deferInsert) {
          await q.insertConversationWithMessage(
            db,
            { id: conversation.id, ...newConversation },
            { id: userMessage.id, parts: userParts },
          );
          return;
        }
        if (truncateAt !== null) await q.truncateFrom(db, conversation.id, truncateAt);
        await q.appendMessage(db, {
          id: userMessage.id,
          conversationId: conversation.id,
          role: 'user',
          parts: userParts,
          meta: {},
        });
      };
      // With documents, the question is stored before the provider is called (the documents are already written
      // and a failure is simplest to undo here); otherwise the write runs alongside the provider call (below).
      const persist = withDocuments ? await writeUserMessage().then(() => null) : writeUserMessage;

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
      return { conversation, isNew, question, userMessage, context, modelMessages, sources, persist };
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
        await Promise.all([persisted, unreserved]);
        if (persistFailed) {
          await reservation.refund();
          if (isNew) await q.deleteConversations(db, user.id, conversation.id).catch(() => undefined);
          return;
        }
        // Independent writes, so they run together: the response ends only once the turn is settled. A database
        // out of reach for a moment is waited for (the answer is written once: its id is chosen here).
        await Promise.all([
          text.length > 0 ? reservation.charge() : reservation.refund(),
          insertOnce(() =>
            q.finishTurn(
              db,
              conversation.id,
              input.model,
              text.length > 0 || status === 'complete'
                ? {
                    id: assistantId,
                    parts: [{ type: 'text', text }],
                    meta: {
                      model: input.model,
                      sources: publicSources,
                      citedPages: context.citedPages,
                      status,
                      ...(usage ? { usage } : {}),
                    },
                  }
                : null,
            ),
          ),
        ]);
        if (isNew && status === 'complete') void nameConversation(conversation.id, question, text, resolved);
      } catch (error) {
        log.error({ err: error }, 'could not settle a chat turn');
      }
    };

    const prompt = toProviderPrompt(context.system, modelMessages);
    // The provider request is made now; it goes out once the turn is admitted.
    holdRequests(providerAbort.signal, admitted);
    const opening = openProviderStream(resolved.model, {
      prompt,
      abortSignal: providerAbort.signal,
      maxRetries: 1,
    });
    // Settles when the provider has answered or failed; a failure itself is handled where `opening` is awaited.
    const answered = opening.then(noop, noop);
    let user: UserRow;
    let reservation: Reservation;
    let unreserved: Promise<void> | null;
    try {
      ({ user, reservation, unreserved } = await admitted);
    } catch (error) {
      clearTimeout(timer);
      providerAbort.abort(error);
      return undo(error);
    }
    // The question's write, when it runs alongside the provider call. It starts once the provider has answered (or
    // after 50 ms), so that it delays neither the request nor the first words; the turn settles only after it. If
    // it fails, the turn stops and fails.
    let persistFailed = false;
    const persisted: Promise<void> = persist
      ? Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 50))])
          .then(() => insertOnce(persist))
          .catch((error: unknown) => {
            persistFailed = true;
            log.error({ err: error }, 'could not store the question of a chat turn');
            providerAbort.abort(new Error('could not store the question'));
          })
      : Promise.resolve();

    const errorText = translate(lang, 'api', 'errors.PROVIDER_ERROR');
    const timeoutText = translate(lang, 'api', 'errors.FETCH_TIMEOUT');
    const finishMetadata = { citedPages: context.citedPages };

    /**
     * The answer as UI message chunks (the AI SDK UI message stream protocol), in order. It never throws: a failure
     * becomes a localized error chunk after the turn is settled. The caller writes the chunks to the client and
     * calls `abort` if the client goes away.
     */
    async function* chunks(): AsyncGenerator<UIMessageChunk, void, undefined> {
      let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
      let failed = false;
      try {
        // The provider request goes out first; the client hears `start` right after, not before it.
        await new Promise((resolve) => setImmediate(resolve));
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
        reader = await opening;
        yield { type: 'start-step' };
        for (;;) {
          const { done, value: part } = await reader.read();
          if (done) break;
          switch (part.type) {
            case 'text-delta':
              text += part.delta;
              yield { type: 'text-delta', id: part.id, delta: part.delta };
              break;
            case 'reasoning-delta':
              yield { type: 'reasoning-delta', id: part.id, delta: part.delta };
              break;
            case 'text-start':
            case 'text-end':
            case 'reasoning-start':
            case 'reasoning-end':
              yield { type: part.type, id: part.id };
              break;
            case 'file':
              yield {
                type: 'file',
                mediaType: part.mediaType,
                url: `data:${part.mediaType};base64,${typeof part.data === 'string' ? part.data : Buffer.from(part.data).toString('base64')}`,
              };
              break;
            case 'finish':
              usage = { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total };
              yield { type: 'finish-step' };
              yield { type: 'finish', finishReason: part.finishReason.unified, messageMetadata: finishMetadata };
              break;
            case 'error':
              failed = true;
              log.warn({ provider: describeError(part.error) }, 'provider failed during a chat turn');
              yield { type: 'error', errorText };
              break;
            default:
              // Stream metadata, raw chunks, sources and tool parts: a chat turn has no use for them.
              break;
          }
        }
        await finalize(failed || persistFailed ? 'failed' : 'complete');
        if (persistFailed && !failed) yield { type: 'error', errorText };
      } catch (error) {
        const stopped = clientAbort.signal.aborted;
        if (timedOut) {
          await finalize('failed');
          yield { type: 'error', errorText: timeoutText };
          return;
        }
        if (!stopped && !persistFailed) log.warn({ provider: describeError(error) }, 'chat stream ended with an error');
        await finalize(stopped ? 'stopped' : 'failed');
        if (!stopped) yield { type: 'error', errorText };
      } finally {
        reader?.releaseLock();
      }
    }

    return {
      chunks: chunks(),
      chatId: conversation.id,
      /** Settles when the provider has answered (or failed to). */
      opened: answered,
      /** The client left: stop the provider and keep what was said so far. */
      abort: () => {
        if (clientAbort.signal.aborted) return;
        clientAbort.abort(new Error('client went away'));
        void finalize('stopped');
      },
    };
  }

  return {
    /**
     * A place among the few turns prepared at a time (see `startTurn`): taken before anything else is done with the
     * request, so that a burst of new chats waits its turn for a few milliseconds rather than starving the answers
     * already streaming. Resolves with the function that gives the place back.
     */
    admit: () => starting.acquire(),

    /**
     * Validates and prepares one turn (history, attachments, sources), reserves its credit, and returns the
     * stream of the answer. Nothing is charged if the provider fails before any output. `release` is the place
     * taken with `admit`: it is given back once the provider has answered, or after 100 ms of waiting for it (a slow
     * provider costs no work here), or at once if the turn is refused.
     */
    async startTurn(caller: PendingCaller, input: ChatInput, files: Upload[], lang: UiLanguage, release: () => void) {
      try {
        const turn = await beginTurn(caller, input, files, lang);
        const waited = setTimeout(release, 100);
        void turn.opened.then(() => {
          clearTimeout(waited);
          release();
        });
        return turn;
      } catch (error) {
        release();
        throw error;
      }
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

    /** A conversation with its documents and their files. */
    async remove(user: UserRow, id: string) {
      const { count, storageKeys } = await q.deleteConversations(db, user.id, id);
      if (!count) throw new NotFoundError('conversation');
      await removeFiles(storageKeys);
    },

    /** Every conversation of the person, with their documents and files. */
    async removeAll(user: UserRow) {
      const { count, storageKeys } = await q.deleteConversations(db, user.id);
      await removeFiles(storageKeys);
      return count;
    },

    /** An attachment's bytes, for its owner only. */
    async file(user: UserRow, id: string) {
      const doc = await q.findDocument(db, id, user.id);
      if (!doc?.storageKey) throw new NotFoundError('file');
      return { bytes: await storage.get(doc.storageKey), mediaType: doc.mediaType, name: doc.name };
    },

    availability: async (user: UserRow) => registry.availability(await keys.ownKeys(user.id)),

    /**
     * Removes what no conversation can reach any more, once it is older than `olderThanSeconds` (so that a turn
     * still being written is never touched): documents no message refers to, and files no document refers to (a
     * crash between writing a file and its row, or between deleting a row and its file). Returns how many files went.
     */
    async sweepOrphans(olderThanSeconds: number) {
      const unreferenced = await q.deleteUnreferencedDocuments(db, olderThanSeconds);
      await removeFiles(unreferenced);
      let removed = unreferenced.length;
      const before = Date.now() - olderThanSeconds * 1000;
      let batch: string[] = [];
      const flush = async () => {
        const known = await q.knownStorageKeys(db, batch);
        const orphans = batch.filter((key) => !known.has(key));
        await removeFiles(orphans);
        removed += orphans.length;
        batch = [];
      };
      for await (const file of storage.list()) {
        if (file.modifiedAt.getTime() >= before) continue;
        batch.push(file.key);
        if (batch.length >= 500) await flush();
      }
      if (batch.length) await flush();
      return removed;
    },
  };

  /** A short generated title for a new conversation; on any failure the question's opening stays the title. */
  async function nameConversation(id: string, question: string, answer: string, resolved: ResolvedModel) {
    try {
      const text = await completeText(resolved.model, {
        system:
          'Write a short conversation title (at most 6 words) for this exchange, in the language of the question. Answer with the title only, no quotes.',
        prompt: `Question: ${question.slice(0, 2000)}\n\nAnswer: ${answer.slice(0, 2000)}`,
        abortSignal: AbortSignal.timeout(15_000),
      });
      const title = text
        .replace(/^["'«\s]+|["'»\s]+$/g, '')
        .split('\n')[0]!
        .slice(0, TITLE_MAX);
      if (title) await q.renameConversation(db, id, title);
    } catch (error) {
      log.info({ provider: describeError(error) }, 'could not generate a conversation title');
    }
  }
}

export type ChatService = ReturnType<typeof createChatService>;
