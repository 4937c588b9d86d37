import { randomUUID } from 'node:crypto';
import type { Source } from '@parley/contract';
import type { ModelMessage } from 'ai';
import type { StoredPart } from '../../../db/schema/index.js';
import { DomainError, NotFoundError } from '../../../lib/errors.js';
import { pageDocument, readSource, type SourceDocument } from '../../documents/index.js';
import * as q from '../chat.queries.js';
import type { AdmittedTurn, TurnDeps } from './admit.js';
import { buildContext } from './context.js';

export const TITLE_MAX = 80;

/** `work`, or the signal's reason as soon as it aborts (the work itself runs on to its own end, unobserved). */
function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  work.catch(() => undefined); // a failure after the signal has aborted concerns no one
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export type PreparedTurn = {
  conversationId: string;
  isNew: boolean;
  /** A new conversation's title as stored, until a generated one replaces it. */
  title: string;
  question: string;
  /** The conversation's messages before the question (after an edit's or a regeneration's cut), as stored. */
  history: q.MessageRow[];
  userMessageId: string;
  /** The question's parts, as stored. */
  userParts: StoredPart[];
  context: ReturnType<typeof buildContext>;
  modelMessages: ModelMessage[];
  sources: (Source & { snippet: string })[];
  /** The question's write, when it is left to run alongside the provider call (a turn without documents). */
  persist: (() => Promise<void>) | null;
};

/** What earlier messages and an edit or a regeneration mean for this turn's question and history. */
function questionAndHistory(turn: AdmittedTurn) {
  const { input } = turn;
  let messages = turn.conversation ? turn.earlier : [];
  let question = input.text;
  let keepAttachments: string[] = [];
  let truncateAt: number | null = null;
  const attachmentsOf = (m: q.MessageRow) => m.parts.flatMap((p) => (p.type === 'attachment' ? [p.documentId] : []));
  if (input.regenerate) {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    if (!lastUser) throw new DomainError('BAD_REQUEST');
    question = lastUser.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    keepAttachments = attachmentsOf(lastUser);
    truncateAt = lastUser.position;
    messages = messages.filter((m) => m.position < lastUser.position);
  } else if (input.editMessageId) {
    const edited = messages.find((m) => m.id === input.editMessageId && m.role === 'user');
    if (!edited) throw new NotFoundError('message');
    keepAttachments = attachmentsOf(edited);
    truncateAt = edited.position;
    messages = messages.filter((m) => m.position < edited.position);
  }
  return { messages, question, keepAttachments, truncateAt, earlierIds: messages.flatMap(attachmentsOf) };
}

/**
 * The turn's question, documents, sources and context. Everything that can fail without writing comes first (the
 * PDFs' text, the page or video, the web search, what the kept documents are); then files and rows are written, and
 * what is written is recorded in `turn.undo` so that a refused turn leaves nothing behind. A turn without
 * documents writes nothing here: its question is written while the provider is already answering (`persist`).
 */
export async function prepareTurn(deps: TurnDeps, turn: AdmittedTurn, left: AbortSignal): Promise<PreparedTurn> {
  const { db, files, tools } = deps;
  // Reading a page, a video, a search or a PDF can take seconds: a client that leaves meanwhile is not waited for,
  // and the page, the video and the search are stopped (a PDF's text is read in memory, and ends on its own).
  const unlessLeft = <T>(work: Promise<T>) => untilAborted(left, work);
  left.throwIfAborted();
  const { input, ownerId, resolved, checked, withDocuments } = turn;
  const written = turn.undo.written;
  const isNew = !turn.conversation;
  const newConversation = { userId: ownerId, title: input.text.slice(0, TITLE_MAX) || '…', model: input.model };
  // A new chat without documents is written together with its first message, in one statement, below.
  const deferInsert = isNew && !withDocuments;
  const { messages, question, keepAttachments, truncateAt, earlierIds } = questionAndHistory(turn);

  const pdfPages = await unlessLeft(
    Promise.all(
      checked.map((c) => (c.kind.kind === 'pdf' ? tools.extractPdf(c.file.bytes).then((r) => r.pages) : null)),
    ),
  );
  const fetched: SourceDocument[] = input.url ? [await unlessLeft(readSource(tools, input.url, left))] : [];
  if (input.page) fetched.push(pageDocument(input.page));
  const sources: (Source & { snippet: string })[] = [];
  if (input.webSearch && tools.search) {
    const results = await unlessLeft(tools.search(question, { limit: 5, signal: left }));
    results.forEach((r, i) => sources.push({ n: i + 1, title: r.title, url: r.url, snippet: r.snippet }));
  }
  // Documents of the whole conversation stay in context for follow-up questions.
  const keptIds = [...new Set([...earlierIds, ...keepAttachments])];
  const keptDocs = keptIds.length ? await q.documentsByIds(db, keptIds, ownerId) : [];
  left.throwIfAborted(); // the writes below are for a client still there
  const isImage = new Set(keptDocs.filter((d) => d.kind === 'image').map((d) => d.id));
  if (!resolved.info.capabilities.vision && keepAttachments.some((id) => isImage.has(id))) {
    throw new DomainError('MODEL_NO_VISION', { model: resolved.label });
  }

  // The writes.
  const conversationId =
    turn.conversation?.id ??
    (deferInsert ? randomUUID() : (await q.insertConversation(db, newConversation, turn.answering)).id);
  if (isNew) written.conversationId = conversationId;
  const added: q.DocumentRow[] = [];
  for (const [i, { file, kind }] of checked.entries()) {
    const id = randomUUID();
    const storageKey = `${ownerId}/${id}`;
    written.storageKeys.push(storageKey);
    await files.put(storageKey, file.bytes);
    written.documentIds.push(id);
    added.push(
      await q.insertDocument(db, {
        id,
        userId: ownerId,
        conversationId,
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
    const row = await q.insertDocument(db, { ...doc, userId: ownerId, conversationId });
    written.documentIds.push(row.id);
    added.push(row);
  }
  const attachmentIds = [...keepAttachments, ...added.map((d) => d.id)];
  const allDocs = [...keptDocs, ...added];
  const images = new Map<string, { bytes: Uint8Array; mediaType: string }>();
  if (resolved.info.capabilities.vision) {
    for (const doc of allDocs.filter((d) => d.kind === 'image' && d.storageKey).slice(-4)) {
      images.set(doc.id, { bytes: await files.get(doc.storageKey!), mediaType: doc.mediaType });
    }
  }

  const userParts: StoredPart[] = [
    { type: 'text', text: question },
    ...attachmentIds.map((documentId) => ({ type: 'attachment' as const, documentId })),
  ];
  const userMessageId = randomUUID();
  const writeUserMessage = async () => {
    if (deferInsert) {
      await q.insertConversationWithMessage(
        db,
        { id: conversationId, ...newConversation },
        { id: userMessageId, parts: userParts },
        turn.answering,
      );
      return;
    }
    if (truncateAt !== null) await q.truncateFrom(db, conversationId, truncateAt);
    await q.appendMessage(db, { id: userMessageId, conversationId, role: 'user', parts: userParts, meta: {} });
  };
  // With documents, the question is stored before the provider is called (the documents are already written and a
  // failure is simplest to undo here); otherwise the write runs alongside the provider call.
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
  return {
    conversationId,
    isNew,
    title: newConversation.title,
    question,
    history: messages,
    userMessageId,
    userParts,
    context,
    modelMessages,
    sources,
    persist,
  };
}
