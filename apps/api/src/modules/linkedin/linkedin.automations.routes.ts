import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import { createWritePacer } from './linkedin.posts.routes.js';
import type { AutomationsService } from './linkedin.automations.service.js';

/** Spec §7 Automations (`/api/mongo/automation/*`): every call is about the caller's own automations. */
export function registerAutomationRoutes(
  app: FastifyInstance,
  {
    automations,
    requireAuth,
    limits,
  }: { automations: AutomationsService; requireAuth: onRequestAsyncHookHandler; limits: RateLimitStore },
) {
  const pace = createWritePacer(limits);
  defineRoute(app, 'automations', requireAuth, async ({ request }) => ({
    data: await automations.list(callerOf(request)),
  }));
  defineRoute(app, 'updateAutomationStatus', requireAuth, async ({ request, query }) => {
    await pace(request);
    return {
      data: await automations.setStatus(callerOf(request), query.automationId, query.automationStatus),
      message: 'automationUpdated',
    };
  });
  defineRoute(app, 'disableDailyRunAutomation', requireAuth, async ({ request, query }) => {
    await pace(request);
    return {
      data: await automations.disableDailyRun(callerOf(request), query.automationId),
      message: 'automationUpdated',
    };
  });
  defineRoute(app, 'deleteAutomation', requireAuth, async ({ request, query }) => {
    await pace(request);
    return { data: await automations.delete(callerOf(request), query.automationId), message: 'automationDeleted' };
  });
}
