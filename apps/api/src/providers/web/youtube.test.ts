import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeEntities } from './entities.js';
import { type FixtureServer, readFixture, startFixtureServer } from './fixtures/server.js';
import { extractAssignedObject } from './json-in-html.js';
import { safeFetch } from './safe-fetch.js';
import { fetchTranscript, parseYouTubeVideoId, type TranscriptFetch } from './youtube.js';

const VIDEO = 'Qd8Zs4fKxqE';
const TITLE = 'How a sourdough starter works {and why it smells} | Kitchen Science #4';

describe('parseYouTubeVideoId', () => {
  it.each([
    ['https://www.youtube.com/watch?v=Qd8Zs4fKxqE', VIDEO],
    ['https://www.youtube.com/watch?feature=share&v=Qd8Zs4fKxqE&t=42s', VIDEO],
    ['http://youtube.com/watch?v=Qd8Zs4fKxqE', VIDEO],
    ['https://m.youtube.com/watch?v=Qd8Zs4fKxqE', VIDEO],
    ['https://music.youtube.com/watch?v=Qd8Zs4fKxqE&list=RDAMVM', VIDEO],
    ['https://youtu.be/Qd8Zs4fKxqE?si=abc123', VIDEO],
    ['youtu.be/Qd8Zs4fKxqE', VIDEO],
    ['  www.youtube.com/watch?v=Qd8Zs4fKxqE  ', VIDEO],
    ['https://www.youtube.com/shorts/Qd8Zs4fKxqE', VIDEO],
    ['https://www.youtube.com/embed/Qd8Zs4fKxqE?start=10', VIDEO],
    ['https://www.youtube-nocookie.com/embed/Qd8Zs4fKxqE', VIDEO],
    ['https://www.youtube.com/live/Qd8Zs4fKxqE', VIDEO],
    ['https://WWW.YOUTUBE.COM./watch?v=Qd8Zs4fKxqE', VIDEO],
  ])('reads %s', (url, id) => expect(parseYouTubeVideoId(url)).toBe(id));

  it.each([
    'https://www.youtube.com/@KitchenScience',
    'https://www.youtube.com/playlist?list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs',
    'https://www.youtube.com/watch?v=tooShort',
    'https://www.youtube.com/watch?v=Qd8Zs4fKxqE1',
    'https://www.youtube.com/watch?v=Qd8Zs4fKx%2FE',
    'https://youtube.com.evil.example/watch?v=Qd8Zs4fKxqE',
    'https://notyoutube.com/watch?v=Qd8Zs4fKxqE',
    'https://evil.example/youtu.be/Qd8Zs4fKxqE',
    'https://vimeo.com/123456789',
    'ftp://youtu.be/Qd8Zs4fKxqE',
    'javascript://youtu.be/Qd8Zs4fKxqE',
    'https://user:pw@youtu.be/Qd8Zs4fKxqE',
    'not a url at all',
  ])('rejects %s', (url) => expect(parseYouTubeVideoId(url)).toBeNull());
});

describe('fetchTranscript', () => {
  let server: FixtureServer;
  let fetch: TranscriptFetch;
  let watchPage = 'youtube-watch.html';
  let captionBody: string | null = null;

  beforeAll(async () => {
    server = await startFixtureServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/watch' && url.searchParams.get('v') === VIDEO) {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return void res.end(await readFixture(watchPage));
      }
      if (url.pathname === '/api/timedtext' && url.searchParams.get('fmt') === 'json3') {
        res.setHeader('content-type', 'application/json; charset=UTF-8');
        if (captionBody !== null) return void res.end(captionBody);
        const kind = url.searchParams.get('kind') === 'asr' ? '-asr' : '';
        return void res.end(await readFixture(`youtube-timedtext-${url.searchParams.get('lang')}${kind}.json`));
      }
      res.statusCode = 404;
      res.end();
    });
    fetch = vi.fn<TranscriptFetch>((url, options) => safeFetch(url, { ...options, allowedHosts: [server.hostKey] }));
  });
  afterAll(() => server.close());

  const transcript = (lang?: string) => fetchTranscript(VIDEO, { fetch, baseUrl: server.origin, lang });

  it('prefers human captions, and parses json3 events into segments and text', async () => {
    const result = await transcript();
    expect(result).toMatchObject({ videoId: VIDEO, title: TITLE, language: 'en' });
    expect(result.segments).toEqual([
      { start: 0, duration: 3.12, text: '[upbeat music]' },
      { start: 3.12, duration: 4.08, text: 'Welcome back to Kitchen Science. Today: what lives in the jar.' },
      { start: 7.2, duration: 3.84, text: 'A starter is yeast & lactic acid bacteria' },
      { start: 11.04, duration: 3.6, text: 'living together in flour and water — a tiny ecosystem.' },
      { start: 17.6, duration: 4.32, text: "The bacteria make the acids 'sour' refers to," },
      { start: 21.92, duration: 3.71, text: 'and the yeast makes the gas that lifts the bread.' },
    ]);
    expect(result.text).toBe(result.segments.map((s) => s.text).join(' '));
  });

  it('sends both requests through the injected fetch, the caption URL re-based on baseUrl', async () => {
    vi.mocked(fetch).mockClear();
    await transcript();
    const urls = vi.mocked(fetch).mock.calls.map(([url]) => new URL(url));
    expect(urls.map((u) => u.origin)).toEqual([server.origin, server.origin]);
    expect(urls[0]!.pathname).toBe('/watch');
    expect(urls[1]!.pathname).toBe('/api/timedtext');
    expect(Object.fromEntries(urls[1]!.searchParams)).toMatchObject({
      v: VIDEO,
      lang: 'en',
      fmt: 'json3',
      signature: expect.any(String),
    });
    expect(urls[1]!.searchParams.get('kind')).toBeNull();
    const watch = server.requests.findLast((r) => r.url.startsWith('/watch'))!;
    expect(watch.headers).toMatchObject({ 'accept-language': 'en', cookie: 'SOCS=CAI' });
  });

  it('picks the requested language, by base language too', async () => {
    expect((await transcript('fr')).segments[1]!.text).toBe(
      'Un levain, ce sont des levures et des bactéries lactiques.',
    );
    expect((await transcript('fr-CA')).language).toBe('fr');
    expect((await transcript('de')).language).toBe('en');
  });

  it('falls back to automatic captions, joining word segments', async () => {
    watchPage = 'youtube-watch-asr-only.html';
    try {
      const result = await transcript('en');
      expect(result.segments.map((s) => s.text)).toEqual([
        'welcome back to kitchen science',
        'today what lives in the jar',
      ]);
      expect(result.segments[0]).toMatchObject({ start: 3.12, duration: 4.079 });
    } finally {
      watchPage = 'youtube-watch.html';
    }
  });

  it('says TRANSCRIPT_UNAVAILABLE for a video without captions', async () => {
    watchPage = 'youtube-watch-no-captions.html';
    try {
      await expect(transcript()).rejects.toMatchObject({ code: 'TRANSCRIPT_UNAVAILABLE' });
    } finally {
      watchPage = 'youtube-watch.html';
    }
  });

  it.each([
    ['an empty caption body (YouTube wants a proof-of-origin token)', ''],
    ['a caption body that is not JSON', '<transcript/>'],
    ['json3 without text', '{"wireMagic":"pb3","events":[{"tStartMs":0,"segs":[{"utf8":"\\n"}]}]}'],
  ])('says TRANSCRIPT_UNAVAILABLE for %s', async (_what, body) => {
    captionBody = body;
    try {
      await expect(transcript()).rejects.toMatchObject({ code: 'TRANSCRIPT_UNAVAILABLE' });
    } finally {
      captionBody = null;
    }
  });

  it('says FETCH_FAILED when the page has no player response, and refuses a malformed id', async () => {
    await expect(fetchTranscript('AAAAAAAAAAA', { fetch, baseUrl: server.origin })).rejects.toMatchObject({
      code: 'FETCH_FAILED',
    });
    await expect(fetchTranscript('../admin?x=', { fetch, baseUrl: server.origin })).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
    });
  });

  it('keeps the caption request under the same SSRF policy as the page', async () => {
    // Without the loopback allowance the fixture itself is private: the default policy refuses it.
    await expect(
      fetchTranscript(VIDEO, { fetch: (u, o) => safeFetch(u, o), baseUrl: server.origin }),
    ).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
  });
});

describe('player response extraction', () => {
  it('skips mentions that are not assignments and braces inside strings', () => {
    const html = `<script>if (window.ytInitialPlayerResponse && ytInitialPlayerResponse.x) {}</script>
      <script>window["ytInitialPlayerResponse"] = {"a":"}{ \\"}\\" \\\\","b":{"c":[1,{"d":"};"}]}};var x = {};</script>`;
    expect(extractAssignedObject(html, 'ytInitialPlayerResponse')).toEqual({
      a: '}{ "}" \\',
      b: { c: [1, { d: '};' }] },
    });
    expect(extractAssignedObject('var ytInitialPlayerResponse = {"a": ', 'ytInitialPlayerResponse')).toBeNull();
    expect(extractAssignedObject('var ytInitialPlayerResponse = null;', 'ytInitialPlayerResponse')).toBeNull();
  });

  it('decodes entities once', () => {
    expect(
      decodeEntities('Tom &amp; Jerry &#39;n&#x27; &quot;friends&quot; &amp;amp; &#128512; &#xD800; &bogus;'),
    ).toBe('Tom & Jerry \'n\' "friends" &amp; 😀 &#xD800; &bogus;');
  });
});
