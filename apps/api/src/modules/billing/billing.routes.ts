import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { BillingService } from './billing.service.js';

export function registerBillingRoutes(
  app: FastifyInstance,
  { billing, requireAuth }: { billing: BillingService; requireAuth: onRequestAsyncHookHandler },
) {
  defineRoute(app, 'usage', requireAuth, async ({ request }) => ({ data: await billing.usage(callerOf(request)) }));
}
