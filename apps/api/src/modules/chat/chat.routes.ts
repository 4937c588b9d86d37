import type { OutgoingHttpHeaders } from 'node:http';
import '@fastify/multipart';
import { chatRequestSchema, STREAM_PATHS } from '@parley/contract';
import { experimental_transcribe as transcribe, UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { contentDisposition } from '../../lib/documents/file-name.js';
import { DomainError } from '../../lib/errors.js';
import { MultipartError, multipartBoundary, parseMultipart } from '../../lib/multipart.js';
import { UPLOAD_LIMITS } from '../../plugins/error-handler.js';
import { defineRoute } from '../../lib/route.js';
import type { ModelRegistry } from '../../providers/ai/registry.js';
import type { PendingCaller } from '../auth/index.js';
import type { CreditsService } from '../billing/index.js';
import type { AiLimits } from './ai-limits.js';
import type { ChatService, Upload } from './chat.service.js';
import type { KeysService } from './keys.service.js';

type Deps = {
  chat: ChatService;
  aiLimits: AiLimits;
  /** Longest a request body may take to arrive. */
  bodyTimeoutMs: number;
  keys: KeysService;
  registry: ModelRegistry;
  credits: CreditsService;
  requireAuth: onRequestAsyncHookHandler;
  startAuth: (request: FastifyRequest) => PendingCaller;
};

function caller(request: FastifyRequest) {
  if (!request.auth) throw new Error('requireAuth did not run');
  return request.auth;
}

/** Bodies up to this size are read whole and parsed in one pass; larger ones stream through @fastify/multipart. */
const SMALL_BODY = 256 * 1024;

/** Errors of the streamed reader that already say what the client did wrong (limits); anything else is malformed. */
const KNOWN_MULTIPART_CODES = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/** A small body (a chat request is usually a few hundred bytes): read whole, then parsed with the same limits. */
async function readSmallMultipart(request: FastifyRequest, boundary: string, fileField: string) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > SMALL_BODY) throw new DomainError('MALFORMED_UPLOAD');
  }
  let parsed;
  try {
    parsed = parseMultipart(Buffer.concat(chunks, size), boundary, UPLOAD_LIMITS);
  } catch (error) {
    // A limit is answered by the error handler with the limit; a malformed body (cut short, say) is said so.
    if (error instanceof MultipartError && error.code === 'BAD_REQUEST') throw new DomainError('MALFORMED_UPLOAD');
    throw error;
  }
  if (parsed.files.some((f) => f.fieldname !== fileField)) throw new DomainError('BAD_REQUEST');
  const files: Upload[] = parsed.files.map((f) => ({ bytes: f.bytes, name: f.filename, declaredType: f.mimeType }));
  return { fields: parsed.fields, files };
}

/** A large body, streamed: the limits are enforced by @fastify/multipart as it reads. */
async function readStreamedMultipart(request: FastifyRequest, fileField: string) {
  const fields: Record<string, string> = {};
  const files: Upload[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField) {
          await part.toBuffer();
          throw new DomainError('BAD_REQUEST');
        }
        files.push({ bytes: await part.toBuffer(), name: part.filename ?? '', declaredType: part.mimetype ?? '' });
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof DomainError || (typeof code === 'string' && KNOWN_MULTIPART_CODES.has(code))) throw error;
    // busboy's "Unexpected end of form", a bad part header, a connection cut mid-body: the body is malformed.
    throw new DomainError('MALFORMED_UPLOAD');
  }
  return { fields, files };
}

/**
 * Reads a multipart body: JSON fields by name, files in order, within UPLOAD_LIMITS, and within `timeoutMs`: a body
 * that takes longer is refused (408) and its connection closed, so a slow sender holds nothing for long.
 */
async function readMultipart(request: FastifyRequest, fileField: string, timeoutMs: number) {
  if (!request.isMultipart()) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
  const boundary = multipartBoundary(request.headers['content-type']);
  if (!boundary) throw new DomainError('MALFORMED_UPLOAD');
  const length = Number(request.headers['content-length']);
  const reading =
    length <= SMALL_BODY ? readSmallMultipart(request, boundary, fileField) : readStreamedMultipart(request, fileField);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DomainError('REQUEST_TIMEOUT')), timeoutMs);
  });
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
    reading.catch(() => undefined); // abandoned on a timeout: it fails when the connection closes
  }
}

/**
 * Writes a UI message stream as server-sent events straight to the socket, in the AI SDK's wire format
 * (`data: <json>` per chunk, `data: [DONE]` at the end). Chunks produced in the same tick go out in one write;
 * a slow client pauses the stream (backpressure); a client that goes away stops the turn.
 */
async function writeUiStream(
  request: FastifyRequest,
  reply: FastifyReply,
  turn: { chatId: string; chunks: AsyncGenerator<UIMessageChunk, void, undefined>; abort: () => void },
) {
  reply.hijack();
  const res = reply.raw;
  let gone = false;
  let drained: (() => void) | null = null;
  const wake = () => {
    const resolve = drained;
    drained = null;
    resolve?.();
  };
  res.on('close', () => {
    if (!res.writableFinished) {
      gone = true;
      // The client going away stops the provider call (and a stream with no output is refunded).
      turn.abort();
    }
    wake();
  });
  res.on('drain', wake);
  // The headers set so far (security headers, CORS) and the stream's own, written in one call.
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  for (const name in headers) if (headers[name] === undefined) delete headers[name];
  Object.assign(headers, UI_MESSAGE_STREAM_HEADERS, {
    'x-chat-id': turn.chatId,
    'cache-control': 'no-store',
    'x-request-id': request.id,
  });
  res.writeHead(200, headers);

  let pending = '';
  let full = false;
  const flush = () => {
    const data = pending;
    pending = '';
    if (!gone && data && !res.write(data)) full = true;
  };
  const push = (data: string) => {
    if (!pending) process.nextTick(flush);
    pending += data;
    // A provider that sends a burst: the client still gets it in pieces of a few KiB as they are ready.
    if (pending.length >= 8192) flush();
  };
  let firstDelta = true;

  try {
    for await (const chunk of turn.chunks) {
      if (gone) break;
      push(`data: ${JSON.stringify(chunk)}\n\n`);
      if (firstDelta && chunk.type === 'text-delta') {
        // The first words go out at once: nothing is worth waiting for then.
        firstDelta = false;
        flush();
      }
      if (full) {
        full = false;
        if (res.writableNeedDrain && !gone) await new Promise<void>((resolve) => (drained = resolve));
      }
    }
    if (!gone) {
      flush();
      res.end('data: [DONE]\n\n');
    }
  } catch (error) {
    request.log.error({ err: error }, 'could not write the chat stream');
    turn.abort();
    res.destroy();
  }
}

export function registerChatRoutes(
  app: FastifyInstance,
  { chat, aiLimits, bodyTimeoutMs, keys, registry, credits, requireAuth, startAuth }: Deps,
) {
  const route = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, handler);

  /** The chat request: the JSON `request` field, validated by the contract's schema, and the files. */
  async function readChatRequest(request: FastifyRequest) {
    const { fields, files } = await readMultipart(request, 'files', bodyTimeoutMs);
    let raw: unknown;
    try {
      raw = JSON.parse(fields.request ?? '');
    } catch {
      throw new DomainError('MALFORMED_BODY');
    }
    const parsed = chatRequestSchema.safeParse(raw);
    if (!parsed.success) {
      throw Object.assign(new Error('invalid chat request'), {
        statusCode: 400,
        validation: parsed.error.issues.map((i) => ({
          keyword: i.code,
          instancePath: `/${i.path.join('/')}`,
          message: i.message,
          params: { ...i },
        })),
        validationContext: 'body',
      });
    }
    return { input: parsed.data, files };
  }

  // The order matters (see docs/decisions/013): nothing is read from a caller who is not known, and a place among
  // the turns being prepared is taken only once the caller is known and the body is in. The session itself is
  // checked again, with the credit's reservation, in one statement (see ChatService.startTurn); nothing is
  // answered, and the provider is not called, before that check has passed.
  app.post(STREAM_PATHS.chat, { schema: { hide: true } }, async (request, reply) => {
    const pending = startAuth(request); // a missing or malformed token: 401 at once
    await aiLimits.address(request.ip);
    // A token not seen here before is checked before its body is read; a known one is checked with its reservation.
    pending.ownerHint ??= (await pending.user()).id;
    await aiLimits.person(pending.ownerHint);
    let body;
    try {
      body = await readChatRequest(request);
    } catch (error) {
      await pending.user(); // a caller whose session has ended hears 401 / 409, not what was wrong with the body
      throw error;
    }
    const release = await chat.admit();
    const turn = await chat.startTurn(pending, body.input, body.files, request.lang, release);
    await writeUiStream(request, reply, turn);
  });

  app.post(STREAM_PATHS.transcribe, { onRequest: requireAuth, schema: { hide: true } }, async (request) => {
    const { user } = caller(request);
    await aiLimits.address(request.ip);
    await aiLimits.person(user.id);
    const { files } = await readMultipart(request, 'audio', bodyTimeoutMs);
    const audio = files[0];
    if (!audio || files.length > 1 || audio.bytes.length === 0) throw new DomainError('INVALID_FILE');
    const transcriber = registry.transcriber(await keys.ownKeys(user.id));
    if (!transcriber) throw new DomainError('MODEL_UNAVAILABLE', { model: 'Speech to text' });
    const reservation = await credits.reserve(user.id, 'basic', 'transcribe', {
      metered: transcriber.keySource === 'server',
    });
    try {
      const result = await transcribe({
        model: transcriber.model,
        audio: audio.bytes,
        abortSignal: AbortSignal.timeout(60_000),
      });
      await reservation.charge();
      return { status: 200, message: 'OK', data: { text: result.text } };
    } catch (error) {
      await reservation.refund();
      request.log.warn({ error: (error as Error)?.message }, 'transcription failed');
      throw new DomainError('PROVIDER_ERROR');
    }
  });

  app.get<{ Params: { id: string } }>(
    STREAM_PATHS.file,
    { onRequest: requireAuth, schema: { hide: true } },
    async (request, reply) => {
      const { user } = caller(request);
      if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw new DomainError('NOT_FOUND', { what: 'file' });
      const file = await chat.file(user, request.params.id);
      reply.header('content-type', file.mediaType);
      reply.header('content-disposition', contentDisposition('inline', file.name));
      reply.header('cache-control', 'private, max-age=3600');
      reply.header('x-content-type-options', 'nosniff');
      return reply.send(file.bytes);
    },
  );

  route('models', async ({ request }) => ({ data: await chat.availability(caller(request).user) }));
  route('chatHistories', async ({ query, request }) => ({ data: await chat.list(caller(request).user, query) }));
  route('chatHistory', async ({ query, request }) => ({
    data: await chat.get(caller(request).user, query.chatHistoryId),
  }));
  route('deleteChatHistory', async ({ query, request }) => {
    await chat.remove(caller(request).user, query.chatHistoryId);
    return { data: null };
  });
  route('deleteChatHistories', async ({ request }) => ({
    data: { deleted: await chat.removeAll(caller(request).user) },
  }));

  route('addApiKey', async ({ body, request }) => ({ data: await keys.add(caller(request).user.id, body) }));
  route('apiKeys', async ({ request }) => ({ data: await keys.list(caller(request).user.id) }));
  route('deleteApiKey', async ({ query, request }) => {
    await keys.remove(caller(request).user.id, query.provider);
    return { data: null };
  });
}
