import { pickUiLanguage, type UiLanguage } from '@parley/contract';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../modules/billing/index.js';
import { API_SECURITY_HEADERS, securityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: UiLanguage;
    /** Who is calling and which wallet pays, on authenticated routes (plugins/caller.ts). */
    caller: Caller | null;
  }
}

/**
 * What every request starts with, in one hook: the language of its messages (the `lang-type` header, spec §5), its
 * id on the answer (`x-request-id`), and the answer's security headers (computed once, see security-headers.ts):
 * an API answer's (`/api/…`) or a page's (`pageHeaders`: the web app, and the API's own pages under `pagePrefixes`,
 * such as its documentation).
 */
export function registerRequestContext(
  app: FastifyInstance,
  pageHeaders: Record<string, string> = securityHeaders(),
  pagePrefixes: string[] = [],
) {
  const under = (url: string, prefix: string) =>
    url.startsWith(prefix) && (url.length === prefix.length || '/?'.includes(url[prefix.length]!));
  const isApi = (url: string) => url.startsWith('/api/') && !pagePrefixes.some((prefix) => under(url, prefix));
  app.decorateRequest('lang', 'en');
  app.decorateRequest('caller', null);
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers['lang-type'];
    request.lang = pickUiLanguage(Array.isArray(header) ? header[0] : header);
    reply.headers(isApi(request.url) ? API_SECURITY_HEADERS : pageHeaders);
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
