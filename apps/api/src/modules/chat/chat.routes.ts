import type { OutgoingHttpHeaders } from 'node:http';
import { chatRequestSchema, STREAM_PATHS } from '@parley/contract';
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { AiLimits } from '../../lib/ai-limits.js';
import { DomainError } from '../../lib/errors.js';
import { callerOf as caller, defineRoute, untilClientLeaves } from '../../lib/route.js';
import { multipartRoutes, readMultipart } from '../../lib/upload.js';
import type { PendingCaller } from '../accounts/index.js';
import { contentDisposition } from '../documents/index.js';
import type { ChatService } from './chat.service.js';
import type { Turns } from './turn/index.js';

const fileIdSchema = z.uuid();

type Deps = {
  chat: ChatService;
  turns: Turns;
  aiLimits: AiLimits;
  /** Longest a request body may take to arrive. */
  bodyTimeoutMs: number;
  requireAuth: onRequestAsyncHookHandler;
  startAuth: (request: FastifyRequest) => PendingCaller;
};

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
  if (res.destroyed) return turn.abort(); // the client left just now: nothing to write to
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
    if (gone || !data) return;
    if (!res.write(data)) full = true;
    // Node corks the socket on a write and uncorks it on the next tick; a burst of provider chunks, all handled in
    // promise jobs, keeps that tick from coming until the whole burst is through. The bytes leave now instead.
    res.socket?.uncork();
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
  { chat, turns, aiLimits, bodyTimeoutMs, requireAuth, startAuth }: Deps,
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
  multipartRoutes(app, (scope) => {
    scope.post(STREAM_PATHS.chat, { schema: { hide: true } }, async (request, reply) => {
      // A client that goes away at any point stops the turn: while it waits for a place, while its page, video,
      // search or PDF is read (nothing is sent to the provider then, and nothing is charged), or while it streams.
      const left = untilClientLeaves(reply);
      try {
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
        const release = await turns.admit(left);
        const turn = await turns.start(pending, body.input, body.files, request.lang, release, left);
        await writeUiStream(request, reply, turn);
      } catch (error) {
        // Nobody is left to tell: the turn has been undone (refunded, nothing kept) on its way out.
        if (!left.aborted) throw error;
        reply.hijack();
        reply.raw.destroy();
      }
    });
  });

  app.get<{ Params: { id: string } }>(
    STREAM_PATHS.file,
    { onRequest: requireAuth, schema: { hide: true } },
    async (request, reply) => {
      const { user } = caller(request);
      // The same test as every other id in the contract: anything else is simply not found (the database would
      // refuse it as a uuid, and that is not a server error).
      if (!fileIdSchema.safeParse(request.params.id).success) throw new DomainError('NOT_FOUND', { what: 'file' });
      const file = await chat.file(user, request.params.id);
      reply.header('content-type', file.mediaType);
      reply.header('content-disposition', contentDisposition('inline', file.name));
      reply.header('cache-control', 'private, max-age=3600');
      reply.header('x-content-type-options', 'nosniff');
      return reply.send(file.bytes);
    },
  );

  route('chatHistories', async ({ query, request }) => ({ data: await chat.list(caller(request).user, query) }));
  route('chatHistory', async ({ query, request }) => ({
    data: await chat.get(caller(request).user, query.chatHistoryId),
  }));
  route('deleteChatHistory', async ({ query, request }) => {
    await chat.remove(caller(request).user, query.chatHistoryId);
    return { data: null };
  });
  route('renameChatHistory', async ({ body, request }) => ({
    data: await chat.rename(caller(request).user, body.chatHistoryId, body.title),
  }));
  route('deleteChatHistories', async ({ request }) => ({
    data: { deleted: await chat.removeAll(caller(request).user) },
  }));
}
