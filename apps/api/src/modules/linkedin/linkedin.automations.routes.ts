import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { AutomationsService } from './linkedin.automations.service.js';

/** Spec §7 Automations (`/api/mongo/automation/*`): every call is about the caller's own automations. */
export function registerAutomationRoutes(
  app: FastifyInstance,
  { automations, requireAuth }: { automations: AutomationsService; requireAuth: onRequestAsyncHookHandler },
) {
  defineRoute(app, 'automations', requireAuth, async ({ request }) => ({
    data: await automations.list(callerOf(request)),
  }));
  defineRoute(app, 'updateAutomationStatus', requireAuth, async ({ request, query }) => ({
    data: await automations.setStatus(callerOf(request), query.automationId, query.automationStatus),
    message: 'automationUpdated',
  }));
  defineRoute(app, 'disableDailyRunAutomation', requireAuth, async ({ request, query }) => ({
    data: await automations.disableDailyRun(callerOf(request), query.automationId),
    message: 'automationUpdated',
  }));
  defineRoute(app, 'deleteAutomation', requireAuth, async ({ request, query }) => ({
    data: await automations.delete(callerOf(request), query.automationId),
    message: 'automationDeleted',
  }));
}
