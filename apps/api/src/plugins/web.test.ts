import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { isAssetRequest } from './web.js';

const PAGE = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'parley-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await mkdir(path.join(webDist, 'locales', 'en'), { recursive: true });
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Parley</title><div id="root"></div>');
  await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(webDist, 'locales', 'en', 'auth.json'), '{}');
  t = await createTestApp({ SERVE_WEB: 'true', WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (url: string, accept?: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...(accept ? { accept } : {}), 'lang-type': 'es' } });
const isApp = (res: Awaited<ReturnType<typeof get>>) =>
  res.statusCode === 200 && String(res.headers['content-type']).includes('text/html') && res.body.includes('id="root"');

describe('the web app and its fallback', () => {
  it.each(['/report.pdf', '/chat/abc.def', '/extensionIndex.html', '/a.b/c', '/setting/general.json?x=1'])(
    'a page opened with a dot in its path (%s) gets the app, whose router shows the 404 page',
    async (url) => {
      expect(isApp(await get(url, PAGE))).toBe(true);
    },
  );

  it('paths without a dot get the app whatever they accept', async () => {
    expect(isApp(await get('/chat/abc'))).toBe(true);
    expect(isApp(await get('/setting/general?x=1', PAGE))).toBe(true);
  });

  it('real assets are served; missing ones are a 404, never the app', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await get('/locales/en/auth.json')).statusCode).toBe(200);
    for (const url of ['/assets/missing.js', '/locales/en/nothing.json', '/favicon.ico', '/robots.txt']) {
      const res = await get(url, PAGE);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('id="root"');
    }
    // A resource fetched by a script or an <img>, not a page a person opened.
    expect((await get('/logo.png', 'image/avif,image/webp,*/*')).statusCode).toBe(404);
    expect((await get('/data.json', '*/*')).statusCode).toBe(404);
  });

  it('the API keeps its localized JSON 404s, dotted or not', async () => {
    for (const url of ['/api/nothing-here', '/api/file.json', '/api']) {
      const res = await get(url, PAGE);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ status: 404, code: 'NOT_FOUND', message: expect.any(String) });
    }
    expect((await get('/api/nothing-here')).json().message).toBe('No encontrado.');
  });

  it('a POST to an unknown page is a 404, not the app', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/chat/abc' });
    expect(res.statusCode).toBe(404);
  });
});

describe('isAssetRequest', () => {
  it('tells pages from resources', () => {
    expect(isAssetRequest('/assets/x.js', PAGE)).toBe(true);
    expect(isAssetRequest('/apple-touch-icon-precomposed.png', PAGE)).toBe(true);
    expect(isAssetRequest('/site.webmanifest', undefined)).toBe(true);
    expect(isAssetRequest('/x.html', PAGE)).toBe(false);
    expect(isAssetRequest('/x.html', undefined)).toBe(true);
    expect(isAssetRequest('/chat/abc', undefined)).toBe(false);
  });
});
