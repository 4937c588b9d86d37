import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectGarbageEvery } from '../../test/gc.js';
import { startFixtureServer } from '../web/fixtures/server.js';
import { createBraveSearch, createSearxngSearch, createTavilySearch, createWebSearch } from './index.js';

type Reply = { status?: number; body: string; delayMs?: number };

/** One loopback server per provider; each test sets what it answers. */
async function providerServer() {
  let reply: Reply = { body: '{}' };
  const server = await startFixtureServer(async (_req, res) => {
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    res.statusCode = reply.status ?? 200;
    res.setHeader('content-type', 'application/json');
    res.end(reply.body);
  });
  return Object.assign(server, {
    answer: (next: Reply) => void (reply = next),
    answerJson: (data: object) => void (reply = { body: JSON.stringify(data) }),
  });
}

type ProviderServer = Awaited<ReturnType<typeof providerServer>>;

describe('SearXNG', () => {
  let server: ProviderServer;
  beforeAll(async () => (server = await providerServer()));
  afterAll(() => server.close());

  it('sends GET /search with q, format=json and language, and maps results', async () => {
    server.answerJson({
      query: 'sourdough starter hooch',
      number_of_results: 0,
      results: [
        {
          url: 'https://www.kingarthurbaking.com/blog/2018/05/11/sourdough-starter-hooch',
          title: 'What is sourdough hooch?',
          content: 'Hooch is the liquid that collects on top of a hungry starter.',
          engine: 'duckduckgo',
          parsed_url: ['https', 'www.kingarthurbaking.com', '/blog/2018/05/11/sourdough-starter-hooch', '', '', ''],
          engines: ['duckduckgo', 'brave'],
          positions: [1, 2],
          score: 4.0,
          category: 'general',
        },
        {
          url: 'https://www.kingarthurbaking.com/blog/2018/05/11/sourdough-starter-hooch',
          title: 'Duplicate',
          content: 'dup',
          engine: 'google',
        },
        { url: 'magnet:?xt=urn:btih:abc', title: 'A torrent', content: '' },
        {
          url: 'https://en.wikipedia.org/wiki/Sourdough',
          title: 'Sourdough - Wikipedia',
          content: 'x'.repeat(800),
          engine: 'wikipedia',
        },
        { url: 'https://third.example/', title: 'Third', content: 'c' },
      ],
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: ['sourdough starter smells like acetone'],
      unresponsive_engines: [['qwant', 'timeout']],
    });
    const search = createSearxngSearch({ baseUrl: `${server.origin}/searxng` });
    const results = await search.search('sourdough starter hooch', { language: 'fr-FR', limit: 2 });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe('GET');
    const url = new URL(request.url, server.origin);
    expect(url.pathname).toBe('/searxng/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'sourdough starter hooch',
      format: 'json',
      language: 'fr-FR',
    });
    expect(request.headers.accept).toBe('application/json');
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      title: 'What is sourdough hooch?',
      url: 'https://www.kingarthurbaking.com/blog/2018/05/11/sourdough-starter-hooch',
      snippet: 'Hooch is the liquid that collects on top of a hungry starter.',
    });
    expect(results[1]!.url).toBe('https://en.wikipedia.org/wiki/Sourdough');
    expect(results[1]!.snippet.length).toBeLessThanOrEqual(500);
  });

  it('asks for all languages when none is given', async () => {
    server.answerJson({ results: [] });
    expect(await createSearxngSearch({ baseUrl: server.origin }).search('x')).toEqual([]);
    expect(new URL(server.requests.at(-1)!.url, server.origin).searchParams.get('language')).toBe('all');
  });

  it('is SEARCH_UNAVAILABLE when json output is disabled (403)', async () => {
    server.answer({ status: 403, body: '<html>Forbidden</html>' });
    await expect(createSearxngSearch({ baseUrl: server.origin }).search('x')).rejects.toMatchObject({
      code: 'SEARCH_UNAVAILABLE',
    });
  });
});

describe('Brave', () => {
  let server: ProviderServer;
  beforeAll(async () => (server = await providerServer()));
  afterAll(() => server.close());

  it('sends GET /res/v1/web/search with q, count and the subscription token, and strips highlighting', async () => {
    server.answerJson({
      type: 'search',
      query: {
        original: 'sourdough hooch',
        show_strict_warning: false,
        is_navigational: false,
        country: 'us',
        more_results_available: true,
      },
      mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }] },
      web: {
        type: 'search',
        results: [
          {
            title: 'What is <strong>sourdough</strong> <strong>hooch</strong>? | King Arthur Baking',
            url: 'https://www.kingarthurbaking.com/blog/2018/05/11/sourdough-starter-hooch',
            is_source_local: false,
            is_source_both: false,
            description: 'The <strong>hooch</strong> is alcohol &amp; it means your starter&#x27;s hungry.',
            page_age: '2018-05-11T00:00:00',
            profile: {
              name: 'King Arthur Baking',
              url: 'https://www.kingarthurbaking.com',
              long_name: 'kingarthurbaking.com',
            },
            language: 'en',
            family_friendly: true,
            type: 'search_result',
            subtype: 'generic',
            meta_url: {
              scheme: 'https',
              netloc: 'kingarthurbaking.com',
              hostname: 'www.kingarthurbaking.com',
              favicon: '',
              path: '› blog',
            },
          },
          { title: 'javascript', url: 'javascript:alert(1)', description: 'no' },
          { title: 'Second', url: 'http://second.example/page', description: '' },
        ],
        family_friendly: true,
      },
    });
    const search = createBraveSearch({ apiKey: 'BSA-test-key', baseUrl: server.origin });
    const results = await search.search('sourdough hooch', { limit: 3, language: 'fr' });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe('GET');
    const url = new URL(request.url, server.origin);
    expect(url.pathname).toBe('/res/v1/web/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'sourdough hooch', count: '3', search_lang: 'fr' });
    expect(request.headers['x-subscription-token']).toBe('BSA-test-key');
    expect(request.headers.accept).toBe('application/json');
    expect(results).toEqual([
      {
        title: 'What is sourdough hooch? | King Arthur Baking',
        url: 'https://www.kingarthurbaking.com/blog/2018/05/11/sourdough-starter-hooch',
        snippet: "The hooch is alcohol & it means your starter's hungry.",
      },
      { title: 'Second', url: 'http://second.example/page', snippet: '' },
    ]);
  });

  it('leaves out languages Brave spells its own way, and clamps count to 20', async () => {
    server.answerJson({ web: { results: [] } });
    await createBraveSearch({ apiKey: 'k', baseUrl: server.origin }).search('x', { language: 'ja', limit: 50 });
    const url = new URL(server.requests.at(-1)!.url, server.origin);
    expect(url.searchParams.get('search_lang')).toBeNull();
    expect(url.searchParams.get('count')).toBe('20');
  });

  it('is SEARCH_UNAVAILABLE for a bad key, rate limits and bad JSON', async () => {
    const search = createBraveSearch({ apiKey: 'wrong', baseUrl: server.origin });
    for (const reply of [
      { status: 401, body: '{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","status":401}}' },
      { status: 429, body: '{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","status":429}}' },
      { body: '{"web": {"results": [' },
    ]) {
      server.answer(reply);
      await expect(search.search('x')).rejects.toMatchObject({ code: 'SEARCH_UNAVAILABLE' });
    }
  });
});

describe('Tavily', () => {
  let server: ProviderServer;
  beforeAll(async () => (server = await providerServer()));
  afterAll(() => server.close());

  it('POSTs /search with a bearer key and a JSON body', async () => {
    server.answerJson({
      query: 'sourdough hooch',
      follow_up_questions: null,
      answer: null,
      images: [],
      results: [
        {
          url: 'https://www.theperfectloaf.com/guides/sourdough-starter-hooch/',
          title: 'Sourdough starter hooch: what it is and what to do',
          content: '  Hooch   forms when\na starter runs out of food.  ',
          score: 0.83,
          raw_content: null,
        },
      ],
      response_time: 1.12,
    });
    const search = createTavilySearch({ apiKey: 'tvly-test-key', baseUrl: server.origin });
    const results = await search.search('sourdough hooch', { limit: 4 });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/search');
    expect(request.headers.authorization).toBe('Bearer tvly-test-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ query: 'sourdough hooch', max_results: 4, search_depth: 'basic' });
    expect(results).toEqual([
      {
        title: 'Sourdough starter hooch: what it is and what to do',
        url: 'https://www.theperfectloaf.com/guides/sourdough-starter-hooch/',
        snippet: 'Hooch forms when a starter runs out of food.',
      },
    ]);
  });

  it('is SEARCH_UNAVAILABLE when the provider is too slow', async () => {
    server.answer({ body: '{"results":[]}', delayMs: 500 });
    const search = createTavilySearch({ apiKey: 'k', baseUrl: server.origin, timeoutMs: 100 });
    await expect(search.search('x')).rejects.toMatchObject({ code: 'SEARCH_UNAVAILABLE' });
  });

  it('is SEARCH_UNAVAILABLE when too slow also with a caller’s signal, when garbage is collected meanwhile', async () => {
    server.answer({ body: '{"results":[]}', delayMs: 3_000 });
    const stopCollecting = collectGarbageEvery(20);
    try {
      const search = createTavilySearch({ apiKey: 'k', baseUrl: server.origin, timeoutMs: 1_000 });
      const started = performance.now();
      await expect(search.search('x', { signal: new AbortController().signal })).rejects.toMatchObject({
        code: 'SEARCH_UNAVAILABLE',
      });
      expect(performance.now() - started).toBeLessThan(2_500);
    } finally {
      stopCollecting();
    }
  });

  it('passes the caller abort through instead of blaming the provider', async () => {
    server.answer({ body: '{"results":[]}', delayMs: 500 });
    const controller = new AbortController();
    const pending = createTavilySearch({ apiKey: 'k', baseUrl: server.origin }).search('x', {
      signal: controller.signal,
    });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });
});

describe('createWebSearch', () => {
  let server: ProviderServer;
  beforeAll(async () => (server = await providerServer()));
  afterAll(() => server.close());

  it('builds the configured adapter, or null when off or incomplete', () => {
    expect(createWebSearch({ provider: undefined })).toBeNull();
    expect(createWebSearch({ provider: 'searxng' })).toBeNull();
    expect(createWebSearch({ provider: 'brave' })).toBeNull();
    expect(createWebSearch({ provider: 'tavily', url: 'http://x' })).toBeNull();
    expect(createWebSearch({ provider: 'searxng', url: 'http://searx.lan' })?.name).toBe('searxng');
    expect(createWebSearch({ provider: 'brave', apiKey: 'k' })?.name).toBe('brave');
    expect(createWebSearch({ provider: 'tavily', apiKey: 'k' })?.name).toBe('tavily');
  });

  it.each(['searxng', 'brave', 'tavily'] as const)('points %s at the configured url', async (provider) => {
    server.answerJson({ results: [], web: { results: [] } });
    const before = server.requests.length;
    await createWebSearch({ provider, url: server.origin, apiKey: 'k' })!.search('x');
    expect(server.requests.length).toBe(before + 1);
  });

  it('calls a refused connection SEARCH_UNAVAILABLE', async () => {
    const closed = await startFixtureServer(() => {});
    await closed.close();
    const search = createWebSearch({ provider: 'brave', apiKey: 'k', url: closed.origin })!;
    await expect(search.search('x')).rejects.toMatchObject({ code: 'SEARCH_UNAVAILABLE' });
  });
});
