import type { FastifyInstance } from 'fastify';

export type CorsOptions = {
  /** The origins allowed to call the API from a page (the web app when it is served from elsewhere). */
  origins: readonly string[];
  methods: readonly string[];
  allowedHeaders: readonly string[];
  exposedHeaders: readonly string[];
  maxAgeSeconds: number;
};

/**
 * CORS for the configured origins, in one hook that builds nothing for a request without an allowed `Origin` (the web
 * app served by the API itself, the extension's background, any other client): @fastify/cors merged its options into
 * a new object and made two closures on every request, 13 % of the bytes an authenticated `GET /api/user/profile`
 * allocated (bench/profile.ts; docs/benchmarks.md). A preflight from an allowed origin is answered in the hook, before
 * any authentication; anything else goes on as if CORS were not there (an `OPTIONS` is then a 404).
 */
export function registerCors(app: FastifyInstance, options: CorsOptions) {
  const allowed = new Set(options.origins);
  const exposed = options.exposedHeaders.join(', ');
  const preflight = {
    'access-control-allow-methods': options.methods.join(', '),
    'access-control-allow-headers': options.allowedHeaders.join(', '),
    'access-control-max-age': String(options.maxAgeSeconds),
  };
  app.addHook('onRequest', (request, reply, done) => {
    // What is answered depends on the Origin header: a cache keeps one answer per origin.
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return done();
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', exposed);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      void reply.headers(preflight).code(204).header('content-length', '0').send();
      return;
    }
    done();
  });
  // Fastify answers only the methods a path has: every path takes OPTIONS, so that a preflight reaches the hook.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
