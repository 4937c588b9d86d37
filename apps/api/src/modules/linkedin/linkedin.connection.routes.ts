import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { LinkedinConnectionService } from './linkedin.connection.service.js';

/** Connection attempts per person and hour: more than anyone clicks, few enough that states cannot pile up. */
const CONNECTS_PER_HOUR = 30;

/** Connect (/automation/linkedin-access-1, /linkedin-auth-redirect), its state, disconnect (/automation/linkedInLogout). */
export function registerLinkedinConnectionRoutes(
  app: FastifyInstance,
  {
    connection,
    requireAuth,
    limits,
  }: { connection: LinkedinConnectionService; requireAuth: onRequestAsyncHookHandler; limits: RateLimitStore },
) {
  const pace = async (request: FastifyRequest) => {
    const { count, resetInMs } = await limits.hit(`li:connect:${callerOf(request).user.id}`, 3_600_000);
    if (count > CONNECTS_PER_HOUR) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };

  defineRoute(app, 'linkedinConnection', requireAuth, async ({ request }) => ({
    data: await connection.connection(callerOf(request)),
  }));
  defineRoute(app, 'linkedinConnect', requireAuth, async ({ request }) => {
    await pace(request);
    return { data: await connection.connect(callerOf(request)) };
  });
  defineRoute(app, 'linkedinCallback', requireAuth, async ({ request, body }) => {
    await pace(request);
    return { data: await connection.callback(callerOf(request), body), message: 'linkedinConnected' };
  });
  defineRoute(app, 'linkedinLogout', requireAuth, async ({ request }) => ({
    data: await connection.logout(callerOf(request)),
    message: 'linkedinDisconnected',
  }));
}
