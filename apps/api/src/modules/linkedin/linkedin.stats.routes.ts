import { STATS_IMPORT_MAX_BYTES, STREAM_PATHS } from '@parley/contract';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import { readMultipart } from '../../lib/upload.js';
import { translate } from '@parley/i18n/server';
import type { LinkedinStatsService } from './linkedin.stats.service.js';
import { writePacer } from './linkedin.settings.routes.js';

/** Stats: readings of the person's own pages, the series, and the import of LinkedIn's analytics export (multipart). */
export function registerLinkedinStatsRoutes(
  app: FastifyInstance,
  {
    stats,
    requireAuth,
    limits,
    bodyTimeoutMs,
  }: {
    stats: LinkedinStatsService;
    requireAuth: onRequestAsyncHookHandler;
    limits: RateLimitStore;
    bodyTimeoutMs: number;
  },
) {
  const paced = writePacer(limits);
  defineRoute(app, 'linkedinStats', requireAuth, async ({ request, query }) => ({
    data: await stats.get(callerOf(request), query.days),
  }));
  defineRoute(app, 'addLinkedinStats', requireAuth, async ({ request, body }) => {
    await paced(request);
    return { data: await stats.save(callerOf(request), body.readings) };
  });

  app.post(STREAM_PATHS.linkedinStatsImport, { onRequest: requireAuth, schema: { hide: true } }, async (request) => {
    await paced(request);
    const { files } = await readMultipart(request, 'file', bodyTimeoutMs);
    const file = files[0];
    if (!file || files.length > 1 || file.bytes.length === 0) throw new DomainError('STATS_FILE_UNREADABLE');
    if (file.bytes.length > STATS_IMPORT_MAX_BYTES)
      throw new DomainError('FILE_TOO_LARGE', { limit: STATS_IMPORT_MAX_BYTES / (1024 * 1024) });
    return {
      status: 200,
      message: translate(request.lang, 'api', 'messages.imported'),
      data: await stats.import(callerOf(request), file.bytes),
    };
  });
}
