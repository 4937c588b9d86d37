import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AiLimits } from '../../lib/ai-limits.js';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { PostsService } from './linkedin.posts.service.js';

/** Changes to posts and automations per person and minute: far above what anyone does by hand. */
const WRITES_PER_MINUTE = 60;

/** Paces one person's changes to their posts and automations (shared by the automations routes). */
export function createWritePacer(limits: RateLimitStore) {
  return async (request: FastifyRequest) => {
    const { count, resetInMs } = await limits.hit(`li:posts:${callerOf(request).user.id}`, 60_000);
    if (count > WRITES_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
}

/** Post automation (/automation/post-automation/*): write from an idea, schedule, change while waiting. */
export function registerLinkedinPostRoutes(
  app: FastifyInstance,
  {
    posts,
    requireAuth,
    aiLimits,
    limits,
  }: { posts: PostsService; requireAuth: onRequestAsyncHookHandler; aiLimits: AiLimits; limits: RateLimitStore },
) {
  const pace = createWritePacer(limits);
  defineRoute(app, 'linkedinPostIdea', requireAuth, async ({ request, body }) => {
    await aiLimits.address(request.ip);
    await aiLimits.person(callerOf(request).user.id);
    return { data: await posts.write(callerOf(request), body) };
  });
  defineRoute(app, 'addLinkedinPost', requireAuth, async ({ request, body }) => {
    await pace(request);
    return { data: await posts.schedule(callerOf(request), body), message: 'postScheduled' };
  });
  defineRoute(app, 'updateLinkedinPost', requireAuth, async ({ request, params, body }) => {
    await pace(request);
    return { data: await posts.update(callerOf(request), params.id, body), message: 'postScheduled' };
  });
}
