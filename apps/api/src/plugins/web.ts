import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';

/**
 * Serves the built web app. Hashed assets are cached for a year; index.html is revalidated every time.
 * Unknown non-API paths get index.html so the client-side router decides (it sends them to /not-found).
 */
export async function registerWeb(app: FastifyInstance, webDist: string | null) {
  const index = webDist ? path.join(webDist, 'index.html') : null;
  const hasWeb = !!index && existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    });
  } else if (webDist) {
    app.log.warn(`web app not built (${index} missing): run "npm run build" to serve it`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (hasWeb && wantsPage) {
      const file = request.url.split('?')[0]!;
      if (file !== '/' && path.extname(file)) return sendError(request, reply, 'NOT_FOUND');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return sendError(request, reply, 'NOT_FOUND');
  });
}
