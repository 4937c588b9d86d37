import { STREAM_PATHS, type EndpointName } from '@parley/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AiLimits } from '../../lib/ai-limits.js';
import { DomainError } from '../../lib/errors.js';
import { callerOf as caller, defineRoute, untilClientLeaves as left, type RouteHandler } from '../../lib/route.js';
import { multipartRoutes, readMultipart } from '../../lib/upload.js';
import type { WritingService } from './writing.service.js';

export function registerWritingRoutes(
  app: FastifyInstance,
  {
    writing,
    requireAuth,
    aiLimits,
    bodyTimeoutMs,
  }: { writing: WritingService; requireAuth: onRequestAsyncHookHandler; aiLimits: AiLimits; bodyTimeoutMs: number },
) {
  /** Every writing call is an AI call (or a fetch for one): counted per person and per address, like a chat turn. */
  const limited = async (request: FastifyRequest) => {
    await aiLimits.address(request.ip);
    await aiLimits.person(caller(request).user.id);
  };
  /** Each call also gets `signal`, watched from its start: it stops when its client goes away (refunded, not charged). */
  const route = <N extends EndpointName>(
    name: N,
    handler: (input: Parameters<RouteHandler<N>>[0] & { signal: AbortSignal }) => ReturnType<RouteHandler<N>>,
  ) =>
    defineRoute(app, name, requireAuth, async (input) => {
      const signal = left(input.reply);
      await limited(input.request);
      return handler({ ...input, signal });
    });
  route('editMessage', async ({ body, request, signal }) => ({
    data: await writing.editMessage(caller(request), body, signal),
  }));
  route('message', async ({ body, request, signal }) => ({
    data: await writing.reply(caller(request), 'message', body, signal),
  }));
  route('mailMessage', async ({ body, request, signal }) => ({
    data: await writing.reply(caller(request), 'mail', body, signal),
  }));
  route('comment', async ({ body, request, signal }) => ({
    data: await writing.comment(caller(request), body, signal),
  }));
  route('chatSuggestion', async ({ body, request, signal }) => ({
    data: await writing.suggestions(caller(request), body, signal),
  }));
  route('translate', async ({ body, request, signal }) => ({
    data: await writing.translate(caller(request), body, signal),
  }));
  route('summary', async ({ body, request, signal }) => ({
    data: await writing.summary(caller(request), body, signal),
  }));
  route('templateAi', async ({ query, request, signal }) => ({
    data: await writing.templateDraft(caller(request), query, signal),
  }));
  route('shortcutAi', async ({ query, request, signal }) => ({
    data: await writing.shortcutDraft(caller(request), query, signal),
  }));
  route('transcript', async ({ query, signal }) => {
    const t = await writing.transcript(query.url, signal);
    return { data: { videoId: t.videoId, title: t.title, language: t.language, text: t.text, segments: t.segments } };
  });

  // Voice input: one `audio` file in a multipart body.
  multipartRoutes(app, (scope) => {
    scope.post(STREAM_PATHS.transcribe, { onRequest: requireAuth, schema: { hide: true } }, async (request, reply) => {
      const gone = left(reply);
      await limited(request);
      // One file: a second is refused at its first byte, as the body is read no further.
      const { files } = await readMultipart(request, 'audio', bodyTimeoutMs, { files: 1 });
      const audio = files[0];
      if (!audio || audio.bytes.length === 0) throw new DomainError('INVALID_FILE');
      return { status: 200, message: 'OK', data: await writing.transcribe(caller(request), audio.bytes, gone) };
    });
  });
}
