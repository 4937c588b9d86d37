import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AiLimits } from '../../lib/ai-limits.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { LinkedinDraftsService } from './linkedin.drafts.service.js';
import { writePacer } from './linkedin.settings.routes.js';

/** Drafted comments: drafting is AI calls (counted like every AI call); the list and its changes are the caller's own. */
export function registerLinkedinDraftRoutes(
  app: FastifyInstance,
  {
    drafts,
    requireAuth,
    aiLimits,
    limits,
  }: {
    drafts: LinkedinDraftsService;
    requireAuth: onRequestAsyncHookHandler;
    aiLimits: AiLimits;
    limits: RateLimitStore;
  },
) {
  const paced = writePacer(limits);
  const limited = async (request: FastifyRequest) => {
    await aiLimits.address(request.ip);
    await aiLimits.person(callerOf(request).user.id);
  };
  defineRoute(app, 'linkedinDraft', requireAuth, async ({ request, body }) => {
    await limited(request);
    return { data: await drafts.draft(callerOf(request), body) };
  });
  defineRoute(app, 'linkedinDrafts', requireAuth, async ({ request, query }) => ({
    data: await drafts.list(callerOf(request), query),
  }));
  defineRoute(app, 'updateLinkedinDraft', requireAuth, async ({ request, params, body }) => {
    await paced(request);
    return { data: await drafts.update(callerOf(request), params.id, body), message: 'linkedinSaved' };
  });
}
