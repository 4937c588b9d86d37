import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { detectCharset } from './charset.js';
import { type FixtureServer, readFixture, startFixtureServer } from './fixtures/server.js';
import { capText, countWords, type PageFetch, readPage } from './page-reader.js';
import { safeFetch } from './safe-fetch.js';

/** Served as the real sites would: the Latin-1 page declares its charset only in a <meta>. */
const ROUTES: Record<string, { file?: string; body?: string | Buffer; type: string; status?: number }> = {
  '/2024/03/sourdough-starter-rescue/': { file: 'blog-post.html', type: 'text/html; charset=utf-8' },
  '/culture/marche-de-noel-450-ans.html': { file: 'news-latin1.html', type: 'text/html' },
  '/docs/copias': { file: 'docs-page.xhtml', type: 'application/xhtml+xml' },
  '/report.pdf': { body: '%PDF-1.7\n...', type: 'application/pdf' },
  '/data.json': { body: '{"html":"<p>no</p>"}', type: 'application/json' },
  '/gone': { body: '<html><body><p>Not found</p></body></html>', type: 'text/html', status: 404 },
  '/untyped': {
    body: '<!DOCTYPE html><html lang="de"><head><title>Kurz</title></head><body><nav>Menü</nav><p>Nur ein Satz.</p></body></html>',
    type: '',
  },
  '/untyped-binary': { body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), type: '' },
  '/app-shell': {
    body: '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>boot()</script></body></html>',
    type: 'text/html',
  },
};

describe('readPage', () => {
  let server: FixtureServer;
  let fetchPage: PageFetch;

  beforeAll(async () => {
    server = await startFixtureServer(async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/moved') {
        res.statusCode = 301;
        res.setHeader('location', '/docs/copias');
        return void res.end();
      }
      if (path === '/huge') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        const paragraph = `<p>${'Sentence with several plain words in it. '.repeat(25)}</p>`;
        return void res.end(`<html><body><article><h1>Huge</h1>${paragraph.repeat(400)}</article></body></html>`);
      }
      const route = ROUTES[path];
      if (!route) {
        res.statusCode = 500;
        return void res.end();
      }
      res.statusCode = route.status ?? 200;
      if (route.type) res.setHeader('content-type', route.type);
      res.end(route.file ? await readFixture(route.file) : route.body);
    });
    fetchPage = (url, options) => safeFetch(url, { ...options, allowedHosts: [server.hostKey] });
  });
  afterAll(() => server.close());

  const read = (path: string, maxChars?: number) =>
    readPage(`${server.origin}${path}`, { fetch: fetchPage }, { maxChars });

  it('reads a UTF-8 blog post: article text in paragraphs, metadata, no site chrome', async () => {
    const page = await read('/2024/03/sourdough-starter-rescue/');
    expect(page).toMatchObject({
      url: `${server.origin}/2024/03/sourdough-starter-rescue/`,
      title: 'Why our sourdough starter died (and how we revived it) — The Crumb Journal',
      byline: 'Maya Okonkwo',
      siteName: 'The Crumb Journal',
      lang: 'en-GB',
      excerpt: 'A week of neglect, a layer of hooch, and three feedings that brought our starter back.',
    });
    expect(page.text).toMatch(/^For three years, our starter — affectionately named Clint Yeastwood — lived/);
    expect(page.text).toContain('did not know he existed.\n\nWhen we came back');
    expect(page.text).toContain('\n\nWhat the grey liquid actually is\n\n');
    expect(page.text).toContain(
      '1. Pour off the hooch and discard all but one tablespoon of the starter.\n2. Feed it 50 g',
    );
    expect(page.text).toContain('26 °C');
    for (const chrome of [
      'We use cookies',
      'Newsletter',
      'dataLayer',
      'Same thing happened',
      'All rights reserved',
      'No-knead focaccia',
    ]) {
      expect(page.text).not.toContain(chrome);
    }
    expect(page.wordCount).toBeGreaterThan(350);
    expect(page.wordCount).toBeLessThan(420);
  });

  it('decodes a Latin-1 page whose charset is only in a <meta>', async () => {
    const page = await read('/culture/marche-de-noel-450-ans.html');
    expect(page.title).toBe('Le marché de Noël de Strasbourg fête ses 450 ans');
    expect(page.siteName).toBe("Le Courrier d'Alsace");
    expect(page.lang).toBe('fr');
    expect(page.text).toContain('« Christkindelsmärik »');
    expect(page.text).toContain('Côté sécurité, le périmètre piétonnier');
    expect(page.text).not.toContain('\uFFFD');
    expect(page.text).not.toContain('Publicité');
  });

  it('reads XHTML, keeps table rows and preformatted lines, and follows a redirect', async () => {
    const page = await read('/moved');
    expect(page.url).toBe(`${server.origin}/docs/copias`);
    expect(page.lang).toBe('es');
    expect(page.text).toContain('Opción | Valor por defecto | Descripción\nbackup.hora | 03:00 | Hora local');
    expect(page.text).toContain('almacen backup list\nalmacen backup verify --latest');
    expect(page.text).not.toContain('Descargas');
  });

  it('reads a page too short to be an article, and sniffs untyped HTML', async () => {
    const page = await read('/untyped');
    expect(page.title).toBe('Kurz');
    expect(page.lang).toBe('de');
    expect(page.text).toContain('Nur ein Satz.');
  });

  it.each(['/report.pdf', '/data.json', '/gone', '/untyped-binary', '/app-shell'])('refuses %s', async (path) => {
    await expect(read(path)).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });

  it('caps the text at a paragraph boundary', async () => {
    const page = await read('/huge', 20_000);
    expect(page.text.length).toBeLessThanOrEqual(20_000);
    expect(page.text.length).toBeGreaterThan(16_000);
    expect(page.text.endsWith('in it.')).toBe(true);
    expect((await read('/huge')).text.length).toBeGreaterThan(300_000 * 0.6);
  });

  it('passes safe-fetch refusals through', async () => {
    const error = await readPage('http://169.254.169.254/', { fetch: (url, o) => safeFetch(url, o) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('URL_NOT_ALLOWED');
  });
});

describe('page text helpers', () => {
  it('finds the charset by BOM, header, then meta', () => {
    expect(detectCharset(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'text/html; charset=iso-8859-1')).toBe('utf-8');
    expect(detectCharset(Buffer.from('<meta charset="utf-8">'), 'text/html; charset="Windows-1252"')).toBe(
      'windows-1252',
    );
    expect(
      detectCharset(
        Buffer.from('<meta http-equiv="content-type" content="text/html; charset=shift_jis">'),
        'text/html',
      ),
    ).toBe('shift_jis');
    expect(detectCharset(Buffer.from('<meta charset="bogus-charset">'), 'text/html; charset=nonsense')).toBe('utf-8');
  });

  it('counts words in languages written without spaces', () => {
    expect(countWords('Three little words')).toBe(3);
    expect(countWords('私は学生です', 'ja')).toBeGreaterThan(1);
    expect(countWords('x', 'not a locale!')).toBe(1);
    expect(countWords('— 42 !')).toBe(1);
  });

  it('counts words of a long text quickly, spaced or not', () => {
    const started = Date.now();
    expect(countWords('Sentence with several plain words in it. '.repeat(10_000))).toBe(70_000);
    expect(countWords('私は学生です。'.repeat(30_000), 'ja')).toBeGreaterThan(90_000);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('cuts hard when no paragraph boundary is near', () => {
    expect(capText('a'.repeat(50), 10)).toBe('a'.repeat(10));
    expect(capText('short', 10)).toBe('short');
  });
});
