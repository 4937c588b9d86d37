import { pickUiLanguage, type UiLanguage } from '@parley/contract';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../modules/billing/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: UiLanguage;
    /** Who is calling and which wallet pays, on authenticated routes (plugins/caller.ts). */
    caller: Caller | null;
  }
}

/** The `lang-type` header (spec §5) picks the language of every message in the answer. */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers['lang-type'];
    request.lang = pickUiLanguage(Array.isArray(header) ? header[0] : header);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
