import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLogs } from './db/schema/index.js';
import { createTestApp, type TestApp } from './test/app.js';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'parley-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Parley</title><div id="root"></div>');
  await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({
    SERVE_WEB: 'true',
    WEB_DIST: webDist,
    BODY_LIMIT_BYTES: '4096',
    CORS_ORIGINS: 'https://app.parley.test',
  });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('hostile and malformed requests', () => {
  it('an oversized body is a localized 413 and the server keeps answering', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'lang-type': 'es' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(10_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'La solicitud es demasiado grande.',
    });
    expect((await t.json('GET', '/api/health')).status).toBe(200);
  });

  it.each([
    ['broken JSON', '{"email": "a@b.co", '],
    ['a JSON string', '"hello"'],
    ['a JSON array', '[1,2,3]'],
    ['null', 'null'],
  ])('%s is a 400 with a message, never a 500', async (_, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'lang-type': 'fr' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON|valide/);
  });

  it('an unsupported content type is a 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // Multipart bodies are read only by the routes that take uploads (lib/upload.ts: multipartRoutes).
    const form = new FormData();
    form.set('email', 'someone@example.com');
    const multipart = new Request('http://x/', { method: 'POST', body: form });
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': multipart.headers.get('content-type')!, 'lang-type': 'fr' },
      payload: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(other.statusCode).toBe(415);
    expect(other.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: "Ce type de contenu n'est pas pris en charge.",
    });
  });

  it('wrong types and huge strings inside valid JSON are field errors', async () => {
    const res = await t.json('POST', '/api/auth/register', {
      body: { email: ['a@b.co'], password: 12345678, name: 'n'.repeat(500) },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'name', 'password']);
  });

  it('prototype-pollution keys do not leak into settings', async () => {
    const u = await t.signUp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/setting',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      payload: '{"__proto__": {"isAdmin": true}, "tone": "FORMAL"}',
    });
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('an unexpected failure is a localized 500 without internals, logged for the admin', async () => {
    const local = await createTestApp();
    try {
      const u = await local.signUp();
      const { sql } = await import('drizzle-orm');
      await local.database.db.execute(sql`drop table user_settings cascade`);
      const res = await local.json('GET', '/api/user/setting', { token: u.token, lang: 'es' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        status: 500,
        code: 'INTERNAL',
        message: 'Algo ha fallado por nuestra parte. Inténtalo de nuevo.',
      });
      const logged = await local.database.db.select().from(errorLogs);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ method: 'GET', url: '/api/user/setting', status: 500, userId: u.user.id });
    } finally {
      await local.close();
    }
  });
});

describe('HTTP surface', () => {
  it('sends security headers and a request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-12345678' },
    });
    expect(res.headers['x-request-id']).toBe('trace-12345678');
    // An API answer: nothing may load, run or frame it, nothing keeps it, its type is not guessed.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
    // So are its errors.
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
    expect(missing.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // A page has the web app's policy (Google sign-in, its own scripts) and the headers only documents need.
    for (const url of ['/', '/login', '/api-keys', '/apiary']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.headers['content-security-policy'], url).toContain(
        "script-src 'self' https://accounts.google.com/gsi/client",
      );
      expect(page.headers['cross-origin-opener-policy'], url).toBe('same-origin-allow-popups');
      expect(page.headers['x-content-type-options'], url).toBe('nosniff');
      expect(page.headers['cache-control'], url).not.toBe('no-store');
    }
    // The API's documentation is pages too, with the policy its viewer needs.
    for (const url of ['/api/docs', '/api/docs/', '/api/docs?x=1']) {
      const docs = await t.app.inject({ method: 'GET', url });
      expect(docs.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(docs.headers['cache-control'], url).not.toBe('no-store');
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(bad.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('allows only configured origins (CORS)', async () => {
    const allowed = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/profile',
      headers: { origin: 'https://app.parley.test', 'access-control-request-method': 'GET' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.parley.test');
    const denied = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/profile',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the web app with client-side routing fallback, and JSON 404s under /api', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/some/deep/route?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { 'lang-type': 'fr' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Introuvable.' });
  });

  it('publishes OpenAPI docs generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/register', '/api/auth/login', '/api/user/profile', '/api/user/setting']),
    );
    expect(
      doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema.properties.email,
    ).toBeTruthy();
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });
});
