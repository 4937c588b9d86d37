import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLogs } from './db/schema/index.js';
import { buildPng } from './modules/documents/test-fixtures.js';
import { createTestApp, type TestApp } from './test/app.js';
import { startFakeOpenAI } from './test/fake-openai.js';
import { chatForm, encodeForm } from './test/sse.js';

// Input that once reached the database or the log as it came: control characters, secrets in query strings,
// malformed uploads. Every route it reaches answers 2xx or a clear 4xx, and nothing of it is logged.

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
const logs: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp(
    {
      NODE_ENV: 'production',
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      RATE_LIMIT_PER_IP: '1000',
      RATE_LIMIT_PER_EMAIL: '1000',
      AI_RATE_PER_USER: '1000',
      AI_RATE_PER_IP: '10000',
    },
    { logs, fileMailer: true },
  );
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

/** The secret of the last link mailed to `to`, read from its .eml file. */
async function mailedSecret(to: string, param: 'token' | 'key') {
  const dir = path.join(t.config.dataDir, 'mail');
  const files = (await readdir(dir)).filter((f) => f.endsWith(`-${to}.eml`)).sort();
  const eml = (await readFile(path.join(dir, files.at(-1)!), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return new RegExp(`[?&]${param}=([A-Za-z0-9_-]+)`).exec(eml)![1]!;
}

async function signUp(email: string, name = 'Person') {
  const password = 'correct horse battery';
  await t.json('POST', '/api/auth/register', { body: { email, password, name } });
  await t.json('POST', `/api/auth/verify?token=${await mailedSecret(email, 'token')}`);
  const login = await t.json('POST', '/api/auth/login', { body: { email, password } });
  return login.body.data.token as string;
}

async function chat(token: string, request: object, files: Parameters<typeof chatForm>[1] = []) {
  const { payload, contentType } = await encodeForm(chatForm(request, files));
  return t.app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
}

describe('NUL and other control characters', () => {
  it('are cleaned where text enters, on every route that takes text; nothing answers 500', async () => {
    const nul = '\u0000';
    const register = await t.json('POST', '/api/auth/register', {
      body: { email: 'nul-name@example.com', password: 'long enough pw', name: `Ann${nul}e\u202E` },
    });
    expect(register.status).toBe(200);
    const early = await t.json('POST', '/api/earlyBird/signInEarlyBird', {
      body: { email: 'nul-early@example.com', password: 'long enough pw', name: `Ear${nul}ly` },
    });
    expect(early.status).toBe(200);

    const token = await signUp('nul-user@example.com');
    const profile = await t.json('POST', '/api/user/profile', {
      token,
      body: { name: `Zo${nul}é`, fullName: `Zoé${nul}\nMartin` },
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ name: 'Zoé', fullName: 'Zoé Martin' });
    const settings = await t.json('POST', '/api/user/setting', {
      token,
      body: { quickAccessShortcut: `Ctrl+Shift+${nul}K` },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.data.quickAccessShortcut).toBe('Ctrl+Shift+K');

    const withPage = await chat(token, {
      model: MODEL,
      text: `What does it say${nul}?`,
      page: { url: `https://example.com/a${nul}b`, title: `Ti${nul}tle`, text: `Body ${nul}text\ud800.` },
    });
    expect(withPage.statusCode).toBe(200);
    const withFile = await chat(token, { model: MODEL, text: 'Look' }, [
      { name: `pho${nul}to\u202Egnp.png`, type: 'image/png', bytes: buildPng() },
    ]);
    expect(withFile.statusCode).toBe(200);
    const search = await t.json('GET', `/api/mongo/users/chat/histories?q=${encodeURIComponent(`a${nul}b`)}`, {
      token,
    });
    expect(search.status).toBe(200);
    const rewrite = await t.json('POST', '/api/ai/edit-message', {
      token,
      body: { text: `fix${nul} this`, instruction: `be${nul} brief`, model: MODEL },
    });
    expect(rewrite.status).toBe(200);

    expect(await t.database.db.select().from(errorLogs)).toEqual([]);
  });
});

describe('secrets in the log', () => {
  it('no mailed link, verification token or reset key reaches a log line in production', async () => {
    const email = 'secret-keeper@example.com';
    await signUp(email);
    const verifyToken = logs.length; // the lines so far include sign-up and verification
    await t.json('POST', '/api/auth/forgot-password', { body: { email } });
    const key = await mailedSecret(email, 'key');
    const reset = await t.json('POST', '/api/auth/reset-password', { body: { key, password: 'another long pw' } });
    expect(reset.status).toBe(200);
    const replay = await t.json('POST', `/api/auth/verify?token=${key}`);
    expect(replay.status).toBe(400);
    expect(verifyToken).toBeGreaterThan(0);

    const all = logs.join('\n');
    expect(all).toContain('mail written to'); // the mailer did log, without the link
    expect(all).toContain('/api/auth/verify?token=[redacted]');
    expect(all).not.toContain(key);
    for (const line of logs) expect(line).not.toMatch(/(token|key)=[A-Za-z0-9_-]{20,}/);
  });
});

describe('malformed multipart bodies', () => {
  it('are a clear 400 on chat and on transcription, whatever is wrong with them', async () => {
    const token = await signUp('multipart@example.com');
    const { payload, contentType } = await encodeForm(chatForm({ model: MODEL, text: 'Hi' }));
    const large = await encodeForm(
      chatForm({ model: MODEL, text: 'Hi' }, [
        { name: 'a.png', type: 'image/png', bytes: Buffer.concat([buildPng(), Buffer.alloc(300 * 1024)]) },
      ]),
    );
    const cases: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', payload],
      ['another boundary', 'multipart/form-data; boundary=not-the-one', payload],
      ['an invalid boundary', 'multipart/form-data; boundary="a\u0001b"', payload],
      ['cut short', contentType, payload.subarray(0, payload.length - 10)],
      ['a large body cut short', large.contentType, large.payload.subarray(0, large.payload.length - 100)],
      ['a large body with another boundary', 'multipart/form-data; boundary=zzz', large.payload],
    ];
    for (const url of ['/api/ai/chat', '/api/ai/transcribe']) {
      for (const [what, type, body] of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': type, 'lang-type': 'fr' },
          payload: body,
        });
        expect(res.statusCode, `${url}: ${what}`).toBe(400);
        expect(res.json().code, `${url}: ${what}`).toMatch(/^(MALFORMED_UPLOAD|INVALID_FILE)$/);
        expect(res.json().message, `${url}: ${what}`).not.toBe('');
      }
    }
    expect(await t.database.db.select().from(errorLogs)).toEqual([]);
  });
});
