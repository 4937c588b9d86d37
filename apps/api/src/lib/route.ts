import { api, envelope, type DataOf, type EndpointName } from '@parley/contract';
import { translate } from '@parley/i18n/server';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';

type In<N extends EndpointName, K extends 'body' | 'query' | 'params'> =
  (typeof api)[N] extends Record<K, z.ZodType> ? z.output<(typeof api)[N][K]> : undefined;

export type RouteResult<N extends EndpointName> = {
  data: DataOf<N>;
  /** A key under `messages` in the api namespace; localized for the caller. */
  message?: string;
};

export type RouteHandler<N extends EndpointName> = (input: {
  body: In<N, 'body'>;
  query: In<N, 'query'>;
  params: In<N, 'params'>;
  request: FastifyRequest;
  reply: FastifyReply;
}) => Promise<RouteResult<N>>;

/** Why a call stopped when its client went away: nobody is left to answer, and it is not a failure of the server. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client went away');
    this.name = 'ClientGoneError';
  }
}

/**
 * A signal that aborts (with a ClientGoneError) when the client goes away before its answer has been written (its
 * connection closed): a call made for it stops there, and what it reserved is refunded rather than charged for an
 * answer nobody reads.
 */
export function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  const left = () => {
    if (!res.writableFinished) controller.abort(new ClientGoneError());
  };
  if (res.destroyed) left();
  else res.once('close', left);
  return controller.signal;
}

/**
 * Registers one endpoint of the contract: its schemas validate input and shape the OpenAPI docs,
 * authenticated endpoints get `requireAuth` as soon as the headers are in (before any body is read: a caller
 * without a live session is refused without reading what it sends), and the answer is wrapped in the
 * `{ status, message, data }` envelope.
 */
export function defineRoute<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  requireAuth: onRequestAsyncHookHandler,
  handler: RouteHandler<N>,
) {
  const endpoint = api[name] as (typeof api)[EndpointName] & {
    body?: z.ZodType;
    query?: z.ZodType;
    params?: z.ZodType;
    bodyLimit?: number;
  };
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      tags: [endpoint.path.split('/')[2] ?? 'api'],
      ...(endpoint.auth ? { security: [{ bearer: [] }] } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      response: { 200: envelope(endpoint.data) },
    },
    ...(endpoint.auth ? { onRequest: requireAuth } : {}),
    ...(endpoint.bodyLimit ? { bodyLimit: endpoint.bodyLimit } : {}),
    handler: async (request, reply) => {
      const result = await handler({
        body: request.body as In<N, 'body'>,
        query: request.query as In<N, 'query'>,
        params: request.params as In<N, 'params'>,
        request,
        reply,
      });
      return {
        status: 200,
        message: translate(request.lang, 'api', `messages.${result.message ?? 'ok'}`),
        data: result.data ?? null,
      };
    },
  });
}

/** The caller of an authenticated route: who is calling and which wallet pays (resolved by plugins/caller.ts). */
export function callerOf(request: FastifyRequest) {
  if (!request.caller) throw new Error('the caller plugin did not run for this route');
  return request.caller;
}

/** What a service needs to know about the request beyond its input and its caller. */
export function contextOf(request: FastifyRequest) {
  const deviceType = request.headers['devicetype'];
  return {
    ip: request.ip,
    lang: request.lang,
    userAgent: request.headers['user-agent'],
    deviceType: typeof deviceType === 'string' && /^[A-Z]{2,16}$/.test(deviceType) ? deviceType : undefined,
  };
}
