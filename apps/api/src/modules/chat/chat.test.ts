import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, walletLedger } from '../../db/schema/index.js';
import { ledgerMismatches, setCredits, walletOf } from '../../test/wallets.js';
import { buildPdf, buildPng } from '../documents/test-fixtures.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { chatForm, encodeForm, parseUiStream, sendChat, streamedText } from '../../test/sse.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    OPENAI_COMPATIBLE_API_KEY: 'server-secret-key',
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

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

const chat = (token: string, request: object, files: Parameters<typeof chatForm>[1] = [], lang = 'en') =>
  sendChat(t.app, token, request, { files, lang });

/** What can pay for a basic model (daily credits, then basic ones), and the basic credits used. */
const credits = async (email: string) => {
  const w = await walletOf(t.database.db, email);
  return { left: w.dailyCredit + w.basicCredit, basicUse: w.basicUse };
};

describe('models', () => {
  it('lists the whole catalogue and marks what this server can serve', async () => {
    const u = await t.signUp();
    const res = await t.json('GET', '/api/ai/models', { token: u.token });
    const byId = Object.fromEntries(res.body.data.map((m: any) => [m.id, m]));
    expect(byId.CUSTOM_OPENAI_COMPATIBLE).toMatchObject({
      available: true,
      keySource: 'server',
      label: 'fake-model',
      tier: 'basic',
    });
    expect(byId.GPT_4O_MINI).toMatchObject({ available: false, keySource: null, contextWindow: 128000 });
    expect(byId.GEMINI_2_5_PRO.contextWindow).toBe(2_000_000);
    expect(res.body.data).toHaveLength(10);
  });

  it('an unavailable model is a clear error, not a hidden failure', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: 'GPT_4O', text: 'hello' }, [], 'es');
    expect(res.status).toBe(503);
    expect(res.json.message).toBe(
      'GPT-4o no está disponible en este servidor. Añade tu propia clave de API o elige otro modelo.',
    );
  });
});

describe('streaming chat', () => {
  it('streams an answer, stores the conversation, charges one credit and names the chat', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'Hello there' });
    expect(res.status).toBe(200);
    expect(res.chunks[0]).toMatchObject({
      type: 'start',
      messageMetadata: { model: MODEL, modelLabel: 'fake-model', keySource: 'server' },
    });
    const answerId = res.chunks[0]!.messageId;
    expect(res.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(1);
    expect(res.text).toBe('You asked: Hello there');
    expect(res.chunks.at(-1)).toMatchObject({ type: 'finish' });
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });

    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, {
      token: u.token,
    });
    expect(history.body.data.messages[1].id).toBe(answerId);
    expect(history.body.data.messages.map((m: any) => [m.role, m.text, m.status])).toEqual([
      ['user', 'Hello there', 'complete'],
      ['assistant', 'You asked: Hello there', 'complete'],
    ]);
    await expect
      .poll(
        async () => (await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token })).body.data[0]?.title,
      )
      .toBe('Test chat title');
    const profile = await t.json('GET', '/api/user/profile', { token: u.token });
    expect(profile.body.data).toMatchObject({ basicUse: 1, monthlyUse: 1 });
  });

  it('continues a conversation with its history, regenerates and edits', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'First question' });
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Second question' });
    const sent = fake.requests.at(-1)!.body.messages.map((m: any) => m.role);
    expect(sent).toEqual(['system', 'user', 'assistant', 'user']);

    const again = await chat(u.token, { model: MODEL, chatId: first.chatId, regenerate: true });
    expect(again.text).toBe('You asked: Second question');
    let history = (
      await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${first.chatId}`, { token: u.token })
    ).body.data.messages;
    expect(history.map((m: any) => m.text)).toEqual([
      'First question',
      'You asked: First question',
      'Second question',
      'You asked: Second question',
    ]);

    await chat(u.token, { model: MODEL, chatId: first.chatId, editMessageId: history[2].id, text: 'Edited question' });
    history = (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${first.chatId}`, { token: u.token }))
      .body.data.messages;
    expect(history.map((m: any) => m.text)).toEqual([
      'First question',
      'You asked: First question',
      'Edited question',
      'You asked: Edited question',
    ]);
  });

  it('a provider 500 before any output is a localized error in the stream and refunds the credit', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'Please #fail500' }, [], 'fr');
    expect(res.status).toBe(200);
    expect(res.chunks.find((c) => c.type === 'error')).toMatchObject({
      errorText: "Le fournisseur d'IA a renvoyé une erreur. Veuillez réessayer.",
    });
    await expect.poll(() => credits(u.email)).toEqual({ left: 33, basicUse: 0 });
    const history = (
      await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: u.token })
    ).body.data.messages;
    expect(history.map((m: any) => m.role)).toEqual(['user']);
  });

  it('a connection lost mid-answer keeps the words received, marked failed, and charges', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'Tell me more #failmid' });
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.chunks.some((c) => c.type === 'error')).toBe(true);
    await expect
      .poll(async () =>
        (
          await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: u.token })
        ).body.data.messages.at(-1),
      )
      .toMatchObject({ role: 'assistant', status: 'failed', text: res.text });
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });
  });

  it('a provider that never answers times out with a message and a refund', async () => {
    const u = await t.signUp();
    const started = Date.now();
    const res = await chat(u.token, { model: MODEL, text: 'Are you there #hang' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    expect(res.chunks.some((c) => c.type === 'error')).toBe(true);
    await expect.poll(() => credits(u.email)).toEqual({ left: 33, basicUse: 0 });
  }, 20_000);

  it('stops the provider when the client aborts mid-stream, keeping the partial answer', async () => {
    const u = await t.signUp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    const res = await fetch(`${address}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: MODEL, text: 'Slowly please #slow #long' }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('"text-delta"') || received.split('"text-delta"').length < 4)
      received += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const chatId = JSON.parse(
      received
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    ).messageMetadata.chatId;
    await expect
      .poll(
        async () =>
          (
            await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token: u.token })
          ).body.data.messages.at(-1),
        { timeout: 5000 },
      )
      .toMatchObject({ role: 'assistant', status: 'stopped' });
    const stored = (
      await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token: u.token })
    ).body.data.messages.at(-1);
    expect(stored.text.length).toBeGreaterThan(0);
    expect(stored.text).not.toContain('word199');
    // Charged once the turn has settled, which may come just after the stopped answer is saved.
    await expect.poll(() => credits(u.email), { timeout: 5000 }).toEqual({ left: 32, basicUse: 1 });
  });
});

describe('credits under concurrency', () => {
  it('50 concurrent requests against a balance of 10: exactly 10 are served', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { dailyCredit: 0, basicCredit: 10 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => chat(u.token, { model: MODEL, text: `Question ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(40);
    expect(refused[0]!.json.message).toBe('You need to upgrade plan to continue...');
    // A refused request leaves no conversation or question behind.
    expect(
      (await t.json('GET', '/api/mongo/users/chat/histories?limit=200', { token: u.token })).body.data,
    ).toHaveLength(10);
    expect(await credits(u.email)).toEqual({ left: 0, basicUse: 10 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  }, 60_000);

  it('signed out: the localized login message', async () => {
    const { payload, contentType } = await encodeForm(chatForm({ model: MODEL, text: 'hi' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('You need to log in to continue...');
  });

  it('a token that has just been logged out chats no more: nothing reserved, nothing asked of the provider', async () => {
    const u = await t.signUp();
    // The first turn makes the token's owner known, so the next request starts its lookups while the session is
    // being checked.
    const first = await chat(u.token, { model: MODEL, text: 'Before logging out' });
    expect(first.text).toContain('Before logging out');
    // The generated title is the turn's last call to the provider.
    await expect
      .poll(
        async () =>
          (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${first.chatId}`, { token: u.token })).body
            .data?.title,
      )
      .toBe('Test chat title');
    expect((await t.json('POST', '/api/user/logout', { token: u.token })).status).toBe(200);
    const before = await credits(u.email);
    const asked = fake.requests.length;

    const refused = await chat(u.token, { model: MODEL, text: 'After logging out' });
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe('You need to log in to continue...');
    // An invalid body from a logged-out token is still answered with 401, not with what was wrong with the body.
    const invalid = await chat(u.token, { model: 'NO_SUCH_MODEL', text: '' });
    expect(invalid.status).toBe(401);
    const tooMany = await chat(
      u.token,
      { model: MODEL, text: 'files' },
      Array.from({ length: 12 }, (_, i) => ({ name: `x${i}.txt`, type: 'text/plain', bytes: Buffer.from('x') })),
    );
    expect(tooMany.status).toBe(401);

    expect(fake.requests.length).toBe(asked);
    expect(await credits(u.email)).toEqual(before);
    const wallet = await walletOf(t.database.db, u.email);
    const ledger = await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, wallet.id));
    expect(ledger.filter((l) => l.state === 'reserved')).toEqual([]);
  });
});

describe('attachments', () => {
  it('sends an image to a vision model and keeps it for its owner only', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'What is this?' }, [
      { name: 'shot.png', type: 'image/png', bytes: buildPng() },
    ]);
    expect(res.text).toContain('I can see 1 image(s).');
    const history = (
      await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: u.token })
    ).body.data;
    const image = history.messages[0].attachments[0];
    expect(image).toMatchObject({ kind: 'image', mediaType: 'image/png', name: 'shot.png' });
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/files/${image.id}`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    const other = await t.signUp();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/files/${image.id}`,
          headers: { authorization: `Bearer ${other.token}` },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('reads a PDF page by page and answers citing the page', async () => {
    const u = await t.signUp();
    const pdf = buildPdf([
      ['Introduction to the report.'],
      ['The budget for 2027 is 42 million euros.'],
      ['Conclusion.'],
    ]);
    const res = await chat(u.token, { model: MODEL, text: 'What is the budget?' }, [
      { name: 'report.pdf', type: 'application/pdf', bytes: pdf },
    ]);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/From the document \(p\. \d\)/);
    const system = fake.requests.at(-1)!.body.messages[0].content as string;
    expect(system).toContain('[Page 2]');
    expect(system).toContain('The budget for 2027 is 42 million euros.');
    const finish = res.chunks.find((c) => c.type === 'finish');
    expect(finish!.messageMetadata.citedPages).toEqual([1, 2, 3]);
    // A follow-up in the same chat still has the document.
    await chat(u.token, { model: MODEL, chatId: res.chatId, text: 'And the conclusion?' });
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('Conclusion.');
  });

  it.each([
    [
      'a text file',
      { name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('just text') },
      415,
      'Unsupported file type. Please select an image or PDF.',
    ],
    [
      'text pretending to be a PNG',
      { name: 'fake.png', type: 'image/png', bytes: new TextEncoder().encode('not a png at all') },
      400,
      'Please upload only a valid file.',
    ],
    [
      'an empty PDF',
      { name: 'empty.pdf', type: 'application/pdf', bytes: new Uint8Array() },
      400,
      'Please upload only a valid file.',
    ],
  ])('refuses %s with the spec message', async (_, file, status, message) => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'Look' }, [file]);
    expect(res.status).toBe(status);
    expect(res.json.message).toBe(message);
    expect(await credits(u.email)).toEqual({ left: 33, basicUse: 0 });
    expect((await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token })).body.data).toEqual([]);
  });

  it('refuses more than five files', async () => {
    const u = await t.signUp();
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, type: 'image/png', bytes: buildPng() }));
    const res = await chat(u.token, { model: MODEL, text: 'Look' }, files);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('TOO_MANY_FILES');
    // The same limit when the body is too large to be read whole and streams instead.
    const large = Array.from({ length: 6 }, (_, i) => ({
      name: `${i}.png`,
      type: 'image/png',
      bytes: Buffer.concat([buildPng(), Buffer.alloc(60 * 1024)]),
    }));
    const streamed = await chat(u.token, { model: MODEL, text: 'Look' }, large);
    expect(streamed.status).toBe(400);
    expect(streamed.json.code).toBe('TOO_MANY_FILES');
    expect(await credits(u.email)).toEqual({ left: 33, basicUse: 0 });
  });

  it('refuses a malformed multipart body with a message, and reserves nothing', async () => {
    const u = await t.signUp();
    const { payload, contentType } = await encodeForm(chatForm({ model: MODEL, text: 'Cut short' }, []));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType, 'lang-type': 'fr' },
      payload: payload.subarray(0, payload.length - 10),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('MALFORMED_UPLOAD');
    expect(res.json().message).toBe('L’envoi a été interrompu ou n’est pas un formulaire valide. Veuillez réessayer.');
    expect(await credits(u.email)).toEqual({ left: 33, basicUse: 0 });
  });
});

describe('chat with the page the person is on', () => {
  it('uses page text sent by the client as the page, without fetching anything', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, {
      model: MODEL,
      text: 'Summarize this page',
      page: { url: 'https://mail.example.com/inbox/42', title: 'Quarterly numbers', text: 'Revenue grew 12% in Q3.' },
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('The page is titled "Quarterly numbers"');
    const system = fake.requests.at(-1)!.body.messages[0].content as string;
    expect(system).toContain('Revenue grew 12% in Q3.');
    const history = (
      await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: u.token })
    ).body.data;
    expect(history.messages[0].attachments[0]).toMatchObject({
      kind: 'page',
      name: 'Quarterly numbers',
      url: 'https://mail.example.com/inbox/42',
    });
  });

  it('refuses a page with no text or a non-web address', async () => {
    const u = await t.signUp();
    expect(
      (await chat(u.token, { model: MODEL, text: 'x', page: { url: 'https://a.example', title: 't', text: '   ' } }))
        .status,
    ).toBe(400);
    expect(
      (await chat(u.token, { model: MODEL, text: 'x', page: { url: 'file:///etc/passwd', title: 't', text: 'y' } }))
        .status,
    ).toBe(400);
  });
});

describe('isolation', () => {
  it("another user's conversation is a 404 to read, continue or delete", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const res = await chat(alice.token, { model: MODEL, text: 'Private' });
    expect(
      (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: bob.token })).status,
    ).toBe(404);
    expect((await chat(bob.token, { model: MODEL, chatId: res.chatId, text: 'Let me in' })).status).toBe(404);
    expect(
      (await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${res.chatId}`, { token: bob.token })).status,
    ).toBe(404);
    expect(
      (await t.json('DELETE', '/api/mongo/users/chat/histories/delete', { token: bob.token })).body.data.deleted,
    ).toBe(0);
    expect((await t.json('GET', '/api/mongo/users/chat/histories', { token: bob.token })).body.data).toEqual([]);
    expect(
      (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, { token: alice.token })).status,
    ).toBe(200);
  });

  it('history is searchable and deletable', async () => {
    const u = await t.signUp();
    const a = await chat(u.token, { model: MODEL, text: 'Photosynthesis basics' });
    await chat(u.token, { model: MODEL, text: 'Roman history' });
    const found = await t.json('GET', '/api/mongo/users/chat/histories?q=photosynth', { token: u.token });
    expect(found.body.data.map((c: any) => c.chatHistoryId)).toEqual([a.chatId]);
    expect((await t.json('GET', '/api/mongo/users/chat/histories?q=%25', { token: u.token })).body.data).toEqual([]);
    expect(
      (await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${a.chatId}`, { token: u.token })).status,
    ).toBe(200);
    expect(
      (await t.json('DELETE', '/api/mongo/users/chat/histories/delete', { token: u.token })).body.data.deleted,
    ).toBe(1);
  });

  it('history search finds the words people wrote, not the way messages are stored', async () => {
    const u = await t.signUp();
    await chat(u.token, { model: MODEL, text: 'Hello there' });
    const quoted = await chat(u.token, { model: MODEL, text: 'He said "stop" twice' });
    // Both get their generated title first, so that only the messages can match.
    await expect
      .poll(async () =>
        (await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token })).body.data.map((c: any) => c.title),
      )
      .toEqual(['Test chat title', 'Test chat title']);
    const search = async (q: string) =>
      (
        await t.json('GET', `/api/mongo/users/chat/histories?q=${encodeURIComponent(q)}`, { token: u.token })
      ).body.data.map((c: any) => c.chatHistoryId);
    expect(await search('type')).toEqual([]);
    expect(await search('text')).toEqual([]);
    expect(await search('{"')).toEqual([]);
    expect(await search('said "stop"')).toEqual([quoted.chatId]);
    expect(await search('SAID "STOP" TW')).toEqual([quoted.chatId]);
    expect(await search('said_')).toEqual([]);
  });
});

describe('bring your own key', () => {
  it('stores the key encrypted, shows it masked, and refuses a private base URL', async () => {
    const u = await t.signUp();
    const res = await t.json('POST', '/api/api-key/add', {
      token: u.token,
      body: { provider: 'openai', apiKey: 'sk-proj-abcdef1234567890WXYZ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.maskedKey).toBe('sk-proj-••••WXYZ');
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.provider, 'openai'));
    expect(row!.keyCiphertext).not.toContain('abcdef1234567890');
    const list = await t.json('GET', '/api/api-key/fetch', { token: u.token });
    expect(JSON.stringify(list.body)).not.toContain('abcdef1234567890');
    const models = (await t.json('GET', '/api/ai/models', { token: u.token })).body.data;
    expect(models.find((m: any) => m.id === 'GPT_4O_MINI')).toMatchObject({ available: true, keySource: 'own' });

    for (const baseUrl of [
      'http://127.0.0.1:11434/v1',
      'http://169.254.169.254/v1',
      'http://[::1]:8080/v1',
      'http://0x7f000001/v1',
      'http://localhost:1234/v1',
    ]) {
      const bad = await t.json('POST', '/api/api-key/add', {
        token: u.token,
        body: { provider: 'openaiCompatible', apiKey: 'my-local-key', baseUrl, modelName: 'llama' },
      });
      expect(bad.status, baseUrl).toBe(400);
      expect(bad.body.code).toBe('UNSAFE_BASE_URL');
    }
    const unknown = await t.json('POST', '/api/api-key/add', {
      token: u.token,
      body: {
        provider: 'openaiCompatible',
        apiKey: 'my-key-123',
        baseUrl: 'https://no-such-host.invalid/v1',
        modelName: 'm',
      },
    });
    expect(unknown.body.code).toBe('BASE_URL_NOT_FOUND');
    expect((await t.json('DELETE', '/api/api-key/delete?provider=openai', { token: u.token })).status).toBe(200);
    expect((await t.json('GET', '/api/api-key/fetch', { token: u.token })).body.data).toEqual([]);
  });

  it("uses the user's key with the user's host, unmetered, and never sends the server's key there", async () => {
    const userHost = await startFakeOpenAI();
    const local = await createTestApp({
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: 'server-secret-key',
      APP_SECRET: 'y'.repeat(40),
      ALLOW_PRIVATE_BASE_URLS: 'true',
    });
    try {
      const u = await local.signUp();
      // First on the server's key: the server now knows this person has no key of their own...
      const onServer = await encodeForm(chatForm({ model: MODEL, text: 'On the server key' }));
      const first = await local.app.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': onServer.contentType },
        payload: onServer.payload,
      });
      expect(streamedText(parseUiStream(first.body))).toBe('You asked: On the server key');
      expect(userHost.requests).toHaveLength(0);
      // ...until they add one, which is used from the very next request.
      const add = await local.json('POST', '/api/api-key/add', {
        token: u.token,
        body: {
          provider: 'openaiCompatible',
          apiKey: 'user-own-key-123',
          baseUrl: userHost.baseUrl,
          modelName: 'my-llama',
        },
      });
      expect(add.status).toBe(200);
      const { payload, contentType } = await encodeForm(chatForm({ model: MODEL, text: 'On my own key' }));
      const res = await local.app.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType },
        payload,
      });
      expect(streamedText(parseUiStream(res.body))).toBe('You asked: On my own key');
      expect(userHost.requests.length).toBeGreaterThan(0);
      expect(userHost.requests.every((r) => r.authorization === 'Bearer user-own-key-123')).toBe(true);
      expect(fake.requests.some((r) => r.authorization === 'Bearer user-own-key-123')).toBe(false);
      expect(userHost.requests[0]!.body.model).toBe('my-llama');
      const wallet = await walletOf(local.database.db, u.email);
      expect(wallet).toMatchObject({ dailyCredit: 2, basicCredit: 30, basicUse: 1 });

      // Unmetered means a person with no credits left still chats on their own key, and nothing stays reserved.
      await setCredits(local.database.db, u.email, { basicCredit: 0, dailyCredit: 0 });
      const broke = await encodeForm(chatForm({ model: MODEL, text: 'Still on my own key' }));
      const again = await local.app.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': broke.contentType },
        payload: broke.payload,
      });
      expect(again.statusCode).toBe(200);
      expect(streamedText(parseUiStream(again.body))).toBe('You asked: Still on my own key');
      const ledger = await local.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, wallet.id));
      expect(ledger.filter((l) => l.state === 'reserved')).toEqual([]);
      expect(ledger.filter((l) => l.state === 'charged')).toHaveLength(1); // the first turn, on the server's key
      expect(await walletOf(local.database.db, u.email)).toMatchObject({ basicCredit: 0, basicUse: 1, dailyCredit: 0 });
    } finally {
      await local.close();
      await userHost.close();
    }
  });
});

describe('writing helpers', () => {
  it('with no model named, a model this server serves answers when the settings name one it does not', async () => {
    const u = await t.signUp(); // the default settings name GPT-4o mini, which this server has no key for
    const translated = await t.json('POST', '/api/ai/translate', {
      token: u.token,
      body: { text: 'Good morning', target: 'Spanish' },
    });
    expect(translated.status).toBe(200);
    expect(translated.body.data).toMatchObject({ model: MODEL, text: '(Spanish) Good morning' });
    const named = await t.json('POST', '/api/ai/translate', {
      token: u.token,
      body: { text: 'Good morning', target: 'Spanish', model: 'GPT_4O' },
    });
    expect(named.status).toBe(503);
    expect(named.body.message).toMatch(/GPT-4o/);
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });
  });

  it('rewrite, reply, comment, translate and suggestions answer with text and are metered', async () => {
    const u = await t.signUp();
    await t.json('POST', '/api/user/setting', { token: u.token, body: { model: MODEL } });
    const rewrite = await t.json('POST', '/api/ai/edit-message', {
      token: u.token,
      body: { text: 'pls fix this sentense', tone: 'FORMAL' },
    });
    expect(rewrite.status).toBe(200);
    expect(rewrite.body.data).toMatchObject({ model: MODEL });
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('formal tone');
    expect(
      (
        await t.json('POST', '/api/ai/mail-message', {
          token: u.token,
          body: { thread: 'Can we meet on Monday?', replyOption: 'SCHEDULE_MEETING' },
        })
      ).status,
    ).toBe(200);
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('schedule meeting');
    expect((await t.json('POST', '/api/ai/comment', { token: u.token, body: { post: 'We launched!' } })).status).toBe(
      200,
    );
    expect(
      (await t.json('POST', '/api/ai/translate', { token: u.token, body: { text: 'Bonjour', target: 'Japanese' } }))
        .status,
    ).toBe(200);
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('into Japanese');
    const suggestions = await t.json('POST', '/api/ai/chatSuggestion', {
      token: u.token,
      body: { text: 'Tell me about Mars' },
    });
    expect(suggestions.body.data.suggestions).toEqual(['First idea', 'Second idea', 'Third idea']);
    expect(await credits(u.email)).toEqual({ left: 28, basicUse: 5 });
  });

  it('a failed summary says so in the spec words and costs nothing', async () => {
    const u = await t.signUp();
    const res = await t.json('POST', '/api/ai/summary', {
      token: u.token,
      body: { kind: 'mail', text: 'A long thread #fail500', model: MODEL },
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Could not generate summary, try again after reloading the page');
    expect(await credits(u.email)).toEqual({ left: 33, basicUse: 0 });
  });

  it('transcribes recorded audio with the speech model', async () => {
    const u = await t.signUp();
    const form = chatForm(
      {},
      [{ name: 'voice.webm', type: 'audio/webm', bytes: new Uint8Array(2048).fill(7) }],
      'audio',
    );
    form.delete('request');
    const { payload, contentType } = await encodeForm(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/transcribe',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.text).toMatch(/^Transcribed \d+ bytes of audio\.$/);
  });
});
