import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AiLimits } from '../../lib/ai-limits.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { PostsService } from './linkedin.posts.service.js';

/** Post automation (/automation/post-automation/*): write from an idea, schedule, change while waiting. */
export function registerLinkedinPostRoutes(
  app: FastifyInstance,
  { posts, requireAuth, aiLimits }: { posts: PostsService; requireAuth: onRequestAsyncHookHandler; aiLimits: AiLimits },
) {
  defineRoute(app, 'linkedinPostIdea', requireAuth, async ({ request, body }) => {
    await aiLimits.address(request.ip);
    await aiLimits.person(callerOf(request).user.id);
    return { data: await posts.write(callerOf(request), body) };
  });
  defineRoute(app, 'addLinkedinPost', requireAuth, async ({ request, body }) => ({
    data: await posts.schedule(callerOf(request), body),
    message: 'postScheduled',
  }));
  defineRoute(app, 'updateLinkedinPost', requireAuth, async ({ request, params, body }) => ({
    data: await posts.update(callerOf(request), params.id, body),
    message: 'postScheduled',
  }));
}
