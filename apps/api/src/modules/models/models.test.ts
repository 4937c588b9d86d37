import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { sendChat } from '../../test/sse.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // Only the OpenAI-compatible "Custom" model is served: the default, GPT-4o mini, is not.
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    APP_SECRET: 'x'.repeat(40),
    AI_TIMEOUT_SECONDS: '5',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const chat = (token: string, request: object, lang = 'en') => sendChat(t.app, token, request, { lang });

describe('the model list', () => {
  it('needs a session', async () => {
    expect((await t.json('GET', '/api/ai/models')).status).toBe(401);
  });

  it('names every catalogue model once, marks what this server runs and says why the others cannot', async () => {
    const u = await t.signUp();
    const { body } = await t.json('GET', '/api/ai/models', { token: u.token });
    expect(new Set(body.data.map((m: { id: string }) => m.id)).size).toBe(body.data.length);
    expect(body.data.filter((m: { available: boolean }) => m.available).map((m: { id: string }) => m.id)).toEqual([
      'CUSTOM_OPENAI_COMPATIBLE',
    ]);
    expect(body.data.find((m: { id: string }) => m.id === 'GPT_4O_MINI')).toMatchObject({
      label: 'GPT-4o mini',
      available: false,
      keySource: null,
    });
  });
});

describe('the default model on a server that cannot run it', () => {
  it('a chat turn asking for the default is answered by a served model, which the answer and history name', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: 'GPT_4O_MINI', text: 'Hello there' });
    expect(res.status).toBe(200);
    expect(res.chunks[0]).toMatchObject({
      type: 'start',
      messageMetadata: { model: 'CUSTOM_OPENAI_COMPATIBLE', modelLabel: 'fake-model', keySource: 'server' },
    });
    expect(res.text).toBe('You asked: Hello there');
    const chatId = res.chunks[0]!.messageMetadata!.chatId as string;
    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token: u.token });
    expect(history.body.data.model).toBe('CUSTOM_OPENAI_COMPATIBLE');
  });

  it('any other model this server cannot run is still refused by name, in the asker’s language', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: 'CLAUDE_SONNET_4', text: 'Hello' }, 'fr');
    expect(res.status).toBe(503);
    expect(res.json.code).toBe('MODEL_UNAVAILABLE');
    expect(res.json.message).toContain('Claude Sonnet 4');
  });

  it('writing helpers asking for the default by name answer with a served model and say which', async () => {
    const u = await t.signUp();
    const res = await t.json('POST', '/api/ai/translate', {
      token: u.token,
      body: { text: 'Good morning', target: 'Spanish', model: 'GPT_4O_MINI' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: '(Spanish) Good morning' });
  });
});

describe('own keys for image providers', () => {
  it('are stored like chat keys, listed, and given to images only (an OpenAI key serves both)', async () => {
    const u = await t.signUp();
    const add = (body: object) => t.json('POST', '/api/api-key/add', { token: u.token, body });
    for (const [provider, apiKey] of [
      ['blackForestLabs', 'bfl-own-key-1234'],
      ['fal', 'fal-own-key-1234:secret'],
      ['replicate', 'r8_ownToken1234'],
      ['openai', 'sk-own-openai-1234'],
    ] as const)
      expect((await add({ provider, apiKey })).status, provider).toBe(200);
    // A self-hosted images server needs its address.
    const noUrl = await add({ provider: 'openaiCompatibleImages', apiKey: 'sd-key-1234' });
    expect(noUrl.status).toBe(400);
    expect((await add({ provider: 'midjourney', apiKey: 'mj-key-1234' })).status).toBe(400);

    const list = (await t.json('GET', '/api/api-key/fetch', { token: u.token })).body.data;
    expect(list.map((k: { provider: string }) => k.provider).sort()).toEqual([
      'blackForestLabs',
      'fal',
      'openai',
      'replicate',
    ]);
    expect(JSON.stringify(list)).not.toContain('own-key');

    const models = t.app.services.models;
    const id = u.user.id as string;
    expect((await models.keys.ownKeys(id)).map((k) => k.provider)).toEqual(['openai']);
    expect(
      (await models.imageKeys(id))
        .map((k) => ({ provider: k.provider, apiKey: k.apiKey }))
        .sort((a, b) => a.provider.localeCompare(b.provider)),
    ).toEqual([
      { provider: 'blackForestLabs', apiKey: 'bfl-own-key-1234' },
      { provider: 'fal', apiKey: 'fal-own-key-1234:secret' },
      { provider: 'openai', apiKey: 'sk-own-openai-1234' },
      { provider: 'replicate', apiKey: 'r8_ownToken1234' },
    ]);

    expect((await t.json('DELETE', '/api/api-key/delete?provider=fal', { token: u.token })).status).toBe(200);
    expect((await models.imageKeys(id)).map((k) => k.provider)).not.toContain('fal');
  });
});
