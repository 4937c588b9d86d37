import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { chatForm, encodeForm, parseUiStream } from '../../test/sse.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    OPENAI_COMPATIBLE_API_KEY: 'server-secret-key',
    APP_SECRET: 'x'.repeat(40),
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const RENAME = '/api/mongo/users/chat/rename';

/** A conversation of `token`'s, once the server has named it (so that its own naming cannot race a rename). */
async function conversation(token: string, text: string) {
  const { payload, contentType } = await encodeForm(chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const chatId = parseUiStream(res.body)[0]?.messageMetadata?.chatId as string;
  await expect
    .poll(async () => {
      const list = await t.json('GET', '/api/mongo/users/chat/histories', { token });
      return list.body.data.find((c: { chatHistoryId: string }) => c.chatHistoryId === chatId)?.title;
    })
    .toBe('Test chat title');
  return chatId;
}

describe('renaming a conversation', () => {
  it('renames it for its owner, cleaned to one line, without moving it in the history', async () => {
    const u = await t.signUp();
    const first = await conversation(u.token, 'First');
    const second = await conversation(u.token, 'Second');
    const res = await t.json('POST', RENAME, {
      token: u.token,
      body: { chatHistoryId: first, title: '  Trip\u0000 to\nLisbon\u202E  ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ chatHistoryId: first, title: 'Trip to Lisbon' });
    const list = await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token });
    expect(list.body.data.map((c: { chatHistoryId: string; title: string }) => [c.chatHistoryId, c.title])).toEqual([
      [second, 'Test chat title'],
      [first, 'Trip to Lisbon'],
    ]);
    const found = await t.json('GET', '/api/mongo/users/chat/histories?q=lisbon', { token: u.token });
    expect(found.body.data.map((c: { chatHistoryId: string }) => c.chatHistoryId)).toEqual([first]);
  });

  it("someone else's conversation is not found, and keeps its name", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const id = await conversation(alice.token, 'Private');
    const res = await t.json('POST', RENAME, {
      token: bob.token,
      lang: 'fr',
      body: { chatHistoryId: id, title: 'Mine' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    const mine = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${id}`, { token: alice.token });
    expect(mine.body.data.title).toBe('Test chat title');
  });

  it('refuses an empty, blank, too long or malformed name with a localized message', async () => {
    const u = await t.signUp();
    const id = await conversation(u.token, 'Hello');
    const empty = await t.json('POST', RENAME, {
      token: u.token,
      lang: 'es',
      body: { chatHistoryId: id, title: ' \u0001 ' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Algunos campos no son válidos. Revísalos e inténtalo de nuevo.',
      issues: [{ path: 'title', message: 'Este campo es obligatorio.' }],
    });
    const long = await t.json('POST', RENAME, {
      token: u.token,
      lang: 'fr',
      body: { chatHistoryId: id, title: 'x'.repeat(121) },
    });
    expect(long.status).toBe(400);
    expect(long.body.issues).toEqual([{ path: 'title', message: expect.stringContaining('120') }]);
    for (const body of [
      { chatHistoryId: 'nope', title: 'A' },
      { chatHistoryId: id },
      { chatHistoryId: id, title: 'A', extra: 1 },
    ]) {
      const res = await t.json('POST', RENAME, { token: u.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const kept = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${id}`, { token: u.token });
    expect(kept.body.data.title).toBe('Test chat title');
  });

  it('a name given while the title is being written stays', async () => {
    const u = await t.signUp();
    const calls = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const before = calls();
    // The answer is complete; its generated title is on its way (the fake takes 500 ms to write it).
    const { payload, contentType } = await encodeForm(
      chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Plan a trip #slowtitle' }),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType },
      payload,
    });
    const id = parseUiStream(res.body)[0]?.messageMetadata?.chatId as string;
    const renamed = await t.json('POST', RENAME, { token: u.token, body: { chatHistoryId: id, title: 'Lisbon' } });
    expect(renamed.status).toBe(200);
    await expect.poll(calls).toBe(before + 2); // the answer, and the title asked for
    await new Promise((r) => setTimeout(r, 700)); // the title's answer, and its write, are done
    const kept = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${id}`, { token: u.token });
    expect(kept.body.data.title).toBe('Lisbon');
  });

  it('asks who is calling', async () => {
    const res = await t.json('POST', RENAME, {
      body: { chatHistoryId: '00000000-0000-4000-8000-000000000000', title: 'A' },
    });
    expect(res.status).toBe(401);
  });
});
