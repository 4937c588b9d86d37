import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { ModelsService } from './models.service.js';

const userId = (request: FastifyRequest) => callerOf(request).user.id;

export function registerModelsRoutes(
  app: FastifyInstance,
  { models, requireAuth }: { models: ModelsService; requireAuth: onRequestAsyncHookHandler },
) {
  const route = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, handler);

  route('models', async ({ request }) => ({ data: await models.availability(userId(request)) }));
  route('addApiKey', async ({ body, request }) => ({ data: await models.keys.add(userId(request), body) }));
  route('apiKeys', async ({ request }) => ({ data: await models.keys.list(userId(request)) }));
  route('deleteApiKey', async ({ query, request }) => {
    await models.keys.remove(userId(request), query.provider);
    return { data: null };
  });
}
