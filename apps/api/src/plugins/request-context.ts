import { pickUiLanguage, type UiLanguage } from '@parley/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionRow, UserRow } from '../modules/accounts/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: UiLanguage;
    auth: { user: UserRow; session: SessionRow } | null;
  }
}

/** The `lang-type` header (spec §5) picks the language of every message in the answer. */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers['lang-type'];
    request.lang = pickUiLanguage(Array.isArray(header) ? header[0] : header);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}

export function contextOf(request: FastifyRequest) {
  const deviceType = request.headers['devicetype'];
  return {
    ip: request.ip,
    lang: request.lang,
    userAgent: request.headers['user-agent'],
    deviceType: typeof deviceType === 'string' && /^[A-Z]{2,16}$/.test(deviceType) ? deviceType : undefined,
  };
}
