import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { chatForm, encodeForm } from '../../test/sse.js';

// Admission of chat turns over real sockets: what a caller who is not signed in, or who sends slowly, can hold.

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
let port: number;
const open: net.Socket[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '1000',
    REQUEST_TIMEOUT_SECONDS: '8',
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await t.close();
  await fake.close();
});

type Stalled = { socket: net.Socket; response: Promise<string>; closed: Promise<void> };

/** Sends the headers of a chat upload and a few bytes of its body, then nothing more. */
function stalledUpload(token: string, declaredBytes = 20 * 1024 * 1024): Stalled {
  const socket = net.connect(port, '127.0.0.1');
  open.push(socket);
  let received = '';
  const response = new Promise<string>((resolve) => {
    socket.on('data', (d) => {
      received += d.toString('latin1');
      if (received.includes('\r\n\r\n')) resolve(received);
    });
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/ai/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${declaredBytes}\r\n\r\n` +
      `--xyz\r\nContent-Disposition: form-data; name="files"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return { socket, response, closed };
}

const randomToken = () => randomBytes(32).toString('base64url');

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)),
  ]);

/** A signed-in chat turn over HTTP; resolves with the time to its first text token. */
async function timeToFirstToken(token: string) {
  const { payload, contentType } = await encodeForm(chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Hi' }));
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/ai/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: payload,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the stream ended without a token');
    text += Buffer.from(value).toString();
    if (text.includes('"text-delta"')) break;
  }
  const ms = performance.now() - started;
  await reader.cancel();
  return ms;
}

describe('chat admission', () => {
  it('answers 401 to an upload with an unknown token at once, without reading its body, and closes it', async () => {
    const upload = stalledUpload(randomToken());
    // Well before the body's time is up (8 s): the token was checked before the body was waited for.
    const head = await within(upload.response, 2000, 'the 401');
    expect(head).toMatch(/^HTTP\/1\.1 401/);
    expect(head.toLowerCase()).toContain('connection: close');
    await within(upload.closed, 3000, 'closing the connection');
  });

  it('20 stalled uploads with random tokens do not delay a signed-in turn', async () => {
    const u = await t.signUp();
    const alone = await timeToFirstToken(u.token);
    const stalled = Array.from({ length: 20 }, () => stalledUpload(randomToken()));
    const heads = await within(Promise.all(stalled.map((s) => s.response)), 2000, 'the 401s');
    expect(heads.every((h) => h.startsWith('HTTP/1.1 401'))).toBe(true);
    const meanwhile = await within(timeToFirstToken(u.token), 3000, 'the signed-in first token');
    expect(meanwhile).toBeLessThan(alone + 500);
  });

  it('a signed-in caller who stalls its upload is answered 408 and holds no place among the turns', async () => {
    const u = await t.signUp();
    const other = await t.signUp();
    // Known to this instance (its first request was checked), so its body is read before the reservation.
    await timeToFirstToken(u.token);
    const stalled = Array.from({ length: 20 }, () => stalledUpload(u.token));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Meanwhile the 16 places are not taken by the stalled bodies: another person's turn goes through at once, long
    // before the stalled bodies' time is up (8 s).
    await within(timeToFirstToken(other.token), 3000, 'the other first token');
    const heads = await within(Promise.all(stalled.map((s) => s.response)), 12_000, 'the 408s');
    expect(heads.every((h) => h.startsWith('HTTP/1.1 408'))).toBe(true);
    await within(Promise.all(stalled.map((s) => s.closed)), 3000, 'closing the connections');
  });
});

describe('AI limits', () => {
  it('refuse a person past their calls a minute, with a localized message and Retry-After', async () => {
    const limited = await createTestApp({
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      AI_RATE_PER_USER: '3',
      AI_RATE_PER_IP: '1000',
    });
    try {
      const u = await limited.signUp();
      const { payload, contentType } = await encodeForm(chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Hi' }));
      const turn = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/ai/chat',
          headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType, 'lang-type': 'es' },
          payload,
        });
      for (let i = 0; i < 2; i++) expect((await turn()).statusCode).toBe(200);
      // The writing helpers count too.
      const rewrite = await limited.json('POST', '/api/ai/edit-message', {
        token: u.token,
        body: { text: 'make it better', model: 'CUSTOM_OPENAI_COMPATIBLE' },
      });
      expect(rewrite.status).toBe(200);
      const refused = await turn();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('TOO_MANY_REQUESTS');
      expect(refused.json().message).toMatch(/^Estás enviando solicitudes demasiado rápido\. Espera \d+ segundos/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another person is not affected.
      const other = await limited.signUp();
      const theirs = await limited.json('POST', '/api/ai/edit-message', {
        token: other.token,
        body: { text: 'make it better', model: 'CUSTOM_OPENAI_COMPATIBLE' },
      });
      expect(theirs.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuse an address past its calls a minute, whoever is signed in', async () => {
    const limited = await createTestApp({
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      AI_RATE_PER_USER: '1000',
      AI_RATE_PER_IP: '2',
    });
    try {
      const people = [await limited.signUp(), await limited.signUp(), await limited.signUp()];
      const statuses = [];
      for (const p of people) {
        statuses.push(
          (
            await limited.json('POST', '/api/ai/edit-message', {
              token: p.token,
              body: { text: 'make it better', model: 'CUSTOM_OPENAI_COMPATIBLE' },
            })
          ).status,
        );
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
