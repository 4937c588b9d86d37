import { pickUiLanguage, type UiLanguage } from '@parley/contract';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../modules/billing/index.js';
import { securityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: UiLanguage;
    /** Who is calling and which wallet pays, on authenticated routes (plugins/caller.ts). */
    caller: Caller | null;
  }
}

/**
 * What every request starts with, in one hook: the language of its messages (the `lang-type` header, spec §5), its
 * id on the answer (`x-request-id`), and the answer's security headers (computed once, see security-headers.ts).
 */
export function registerRequestContext(app: FastifyInstance, headers: Record<string, string> = securityHeaders()) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('caller', null);
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers['lang-type'];
    request.lang = pickUiLanguage(Array.isArray(header) ? header[0] : header);
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  if (['trace', 'debug', 'info'].includes(app.log.level)) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
        'request completed',
      );
      done();
    });
  }
}
