import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCors } from './cors.js';

const app = Fastify();
beforeAll(async () => {
  registerCors(app, {
    origins: ['https://app.parley.test'],
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type'],
    exposedHeaders: ['x-request-id', 'retry-after'],
    maxAgeSeconds: 600,
  });
  app.get('/api/thing', async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

const preflight = (origin: string, url = '/api/thing') =>
  app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'GET' } });

describe('CORS', () => {
  it('answers a preflight from an allowed origin, for any path, before anything else runs', async () => {
    for (const url of ['/api/thing', '/api/not-a-route']) {
      const res = await preflight('https://app.parley.test', url);
      expect(res.statusCode).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': 'https://app.parley.test',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
        'access-control-expose-headers': 'x-request-id, retry-after',
        vary: 'Origin',
        'content-length': '0',
      });
    }
  });

  it('lets an allowed origin read the answer and the headers it exposes', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/thing', headers: { origin: 'https://app.parley.test' } });
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.parley.test');
    expect(res.headers['access-control-expose-headers']).toBe('x-request-id, retry-after');
    expect(res.headers.vary).toBe('Origin');
  });

  it('gives another origin nothing: no CORS headers, and its preflight is a 404', async () => {
    for (const origin of ['https://evil.example', 'https://app.parley.test.evil.example', 'null']) {
      const res = await app.inject({ method: 'GET', url: '/api/thing', headers: { origin } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-expose-headers']).toBeUndefined();
      expect(res.headers.vary).toBe('Origin');
      const pre = await preflight(origin);
      expect(pre.statusCode).toBe(404);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('adds only Vary to a request without an Origin header (same-origin pages, the extension, servers)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/thing' });
    expect(res.headers.vary).toBe('Origin');
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect((await app.inject({ method: 'OPTIONS', url: '/api/thing' })).statusCode).toBe(404);
  });

  it('takes an OPTIONS without a method asked for (or an empty one) as no preflight', async () => {
    for (const headers of [
      { origin: 'https://app.parley.test' },
      { origin: 'https://app.parley.test', 'access-control-request-method': '' },
    ]) {
      const res = await app.inject({ method: 'OPTIONS', url: '/api/thing', headers });
      expect(res.statusCode).toBe(404);
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    }
  });
});
