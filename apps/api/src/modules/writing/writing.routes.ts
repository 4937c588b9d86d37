import { STREAM_PATHS } from '@parley/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AiLimits } from '../../lib/ai-limits.js';
import { DomainError } from '../../lib/errors.js';
import { callerOf as caller, defineRoute, untilClientLeaves as left } from '../../lib/route.js';
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
  const route = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, async (input) => {
      await limited(input.request);
      return handler(input);
    });
  // Each stops when its client goes away (and is refunded, not charged).
  route('editMessage', async ({ body, request, reply }) => ({
    data: await writing.editMessage(caller(request), body, left(reply)),
  }));
  route('message', async ({ body, request, reply }) => ({
    data: await writing.reply(caller(request), 'message', body, left(reply)),
  }));
  route('mailMessage', async ({ body, request, reply }) => ({
    data: await writing.reply(caller(request), 'mail', body, left(reply)),
  }));
  route('comment', async ({ body, request, reply }) => ({
    data: await writing.comment(caller(request), body, left(reply)),
  }));
  route('chatSuggestion', async ({ body, request, reply }) => ({
    data: await writing.suggestions(caller(request), body, left(reply)),
  }));
  route('translate', async ({ body, request, reply }) => ({
    data: await writing.translate(caller(request), body, left(reply)),
  }));
  route('summary', async ({ body, request, reply }) => ({
    data: await writing.summary(caller(request), body, left(reply)),
  }));
  route('templateAi', async ({ query, request, reply }) => ({
    data: await writing.templateDraft(caller(request), query, left(reply)),
  }));
  route('shortcutAi', async ({ query, request, reply }) => ({
    data: await writing.shortcutDraft(caller(request), query, left(reply)),
  }));
  route('transcript', async ({ query, reply }) => {
    const t = await writing.transcript(query.url, left(reply));
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
