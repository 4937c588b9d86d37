import { STATS_IMPORT_MAX_BYTES, STREAM_PATHS } from '@parley/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import { limitOf, multipartRoutes, readMultipart } from '../../lib/upload.js';
import { translate } from '@parley/i18n/server';
import type { LinkedinStatsService } from './linkedin.stats.service.js';
import { writePacer } from './linkedin.settings.routes.js';

/** Imports per person and hour: an export is downloaded from LinkedIn now and then, not in a loop. */
export const STATS_IMPORTS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

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

  /** Reading a file and replacing up to a year of readings costs more than a change: imports have their own pace. */
  const importPaced = async (request: FastifyRequest) => {
    const { count, resetInMs } = await limits.hit(`li:stats-import:${callerOf(request).user.id}`, HOUR_MS);
    if (count > STATS_IMPORTS_PER_HOUR) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
  const tooLarge = () => new DomainError('FILE_TOO_LARGE', { limit: STATS_IMPORT_MAX_BYTES / (1024 * 1024) });

  multipartRoutes(app, (scope) => {
    scope.post(
      STREAM_PATHS.linkedinStatsImport,
      { onRequest: requireAuth, schema: { hide: true } },
      async (request) => {
        await paced(request);
        await importPaced(request);
        let files;
        try {
          // One file of at most STATS_IMPORT_MAX_BYTES is read; the body stops being read past that.
          ({ files } = await readMultipart(request, 'file', bodyTimeoutMs, {
            files: 1,
            fileSize: STATS_IMPORT_MAX_BYTES,
          }));
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          const limit = typeof code === 'string' ? limitOf(code)?.code : undefined;
          if (limit === 'FILE_TOO_LARGE') throw tooLarge();
          if (limit === 'TOO_MANY_FILES') throw new DomainError('STATS_FILE_UNREADABLE');
          throw error;
        }
        const file = files[0];
        if (!file || files.length > 1 || file.bytes.length === 0) throw new DomainError('STATS_FILE_UNREADABLE');
        if (file.bytes.length > STATS_IMPORT_MAX_BYTES) throw tooLarge();
        return {
          status: 200,
          message: translate(request.lang, 'api', 'messages.imported'),
          data: await stats.import(callerOf(request), file.bytes),
        };
      },
    );
  });
}
