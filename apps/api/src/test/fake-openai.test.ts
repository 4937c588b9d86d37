import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { startFakeOpenAI } from './fake-openai.js';
import { chatForm, encodeForm, parseUiStream, streamedText } from './sse.js';

/** The demo set-up of the README: the fake provider is also the web, searched and read through the real adapters. */
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
let origin: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ host: '127.0.0.1' });
  origin = `http://127.0.0.1:${fake.port}`;
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'demo',
    SEARCH_PROVIDER: 'searxng',
    SEARCH_URL: origin,
    FETCH_ALLOW_HOSTS: `127.0.0.1:${fake.port}`,
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function chat(token: string, request: object) {
  const { payload, contentType } = await encodeForm(chatForm(request));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const chunks = parseUiStream(res.body);
  return { status: res.statusCode, chunks, text: streamedText(chunks) };
}

describe('the demo web of the fake provider', () => {
  it('answers "Ask For Web" with its own pages as numbered sources, the best match first', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, {
      model: 'CUSTOM_OPENAI_COMPATIBLE',
      text: 'How tall is Olympus Mons on Mars?',
      webSearch: true,
    });
    expect(res.status).toBe(200);
    const sources = res.chunks.filter((c) => c.type === 'source-url');
    expect(sources.map((s) => s.url)).toEqual([
      `${origin}/pages/mars`,
      `${origin}/pages/tidal-energy`,
      `${origin}/pages/sourdough-bread`,
    ]);
    expect(sources[0]!.title).toBe('Mars facts');
    expect(res.text).toContain('According to [1], Mars facts');
    const system = fake.requests.findLast((r) => r.path.endsWith('/chat/completions'))!.body.messages[0].content;
    expect(system).toContain(`[1] Mars facts`);
  });

  it('lets a person chat about one of its pages, read through the page reader', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, {
      model: 'CUSTOM_OPENAI_COMPATIBLE',
      text: 'What is this page about?',
      url: `${origin}/pages/tidal-energy`,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('The page is titled "Tidal energy explained"');
    const system = fake.requests.findLast((r) => r.path.endsWith('/chat/completions'))!.body.messages[0].content;
    expect(system).toContain('Sihwa Lake');
  });
});
