import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { chatForm, encodeForm, parseUiStream } from '../../test/sse.js';
import { ledgerMismatches, walletOf } from '../../test/wallets.js';

// A model that thinks aloud: an OpenAI-compatible server on loopback streaming `reasoning_content` before (or
// instead of) its answer. What reaches the person is output, whichever part of the answer it is.

let provider: Server;
let t: TestApp;
let address: string;
const calls: string[] = [];

beforeAll(async () => {
  provider = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      const question = String([...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user')?.content ?? '');
      calls.push(question);
      const base = { id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 1, model: body.model };
      if (!body.stream) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'A title' }, finish_reason: 'stop' }],
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (delta: object, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      send({ role: 'assistant', content: '' });
      for (const word of ['Let ', 'me ', 'think.']) send({ reasoning_content: word });
      if (question.includes('#thenanswer')) {
        // The answer comes a while after the reasoning; the client may be gone by then.
        for (let i = 0; i < 20 && !res.destroyed; i++) await new Promise((r) => setTimeout(r, 50));
        if (res.destroyed) return;
        send({ content: 'The answer.' });
      }
      send({}, 'stop');
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`,
    OPENAI_COMPATIBLE_MODEL: 'thinking-model',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

const credits = async (email: string) => {
  const w = await walletOf(t.database.db, email);
  return { left: w.dailyCredit + w.basicCredit, basicUse: w.basicUse };
};

describe('reasoning is output', () => {
  it('a turn that only reasoned is charged like any answer', async () => {
    const u = await t.signUp();
    const { payload, contentType } = await encodeForm(chatForm({ model: MODEL, text: 'Think only' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const chunks = parseUiStream(res.body);
    expect(
      chunks
        .filter((c) => c.type === 'reasoning-delta')
        .map((c) => c.delta)
        .join(''),
    ).toBe('Let me think.');
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a client that read the reasoning and left before the text pays for what it read', async () => {
    const u = await t.signUp();
    const abort = new AbortController();
    const res = await fetch(`${address}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: MODEL, text: 'Think, then answer #thenanswer' }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('think.')) received += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const chatId = parseUiStream(received)[0]!.messageMetadata.chatId;
    await expect
      .poll(
        async () =>
          (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token: u.token })).body.data
            ?.messages?.[1]?.status,
        { timeout: 5000 },
      )
      .toBe('stopped');
    await expect.poll(() => credits(u.email), { timeout: 5000 }).toEqual({ left: 32, basicUse: 1 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });
});
