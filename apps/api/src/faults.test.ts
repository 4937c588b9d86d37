import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { walletLedger } from './db/schema/index.js';
import { walletOf } from './test/wallets.js';
import { createTestApp, type TestApp } from './test/app.js';
import { createPostgresTestDatabase } from './test/database.js';
import { startFakeOpenAI } from './test/fake-openai.js';
import { chatForm, parseUiStream } from './test/sse.js';
import { startTcpProxy } from './test/tcp-proxy.js';

// The database going away for a moment, under a turn and between turns: every request ends in a clear answer,
// nothing is charged twice, the answer is not lost, and the server goes on serving once it is back.
// (A provider failing mid-answer and a mail server down at sign-up: chat.test.ts and providers/mail/outbox.test.ts.)

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('PostgreSQL out of reach for a moment', () => {
  let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
  let created: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    created = await createPostgresTestDatabase();
    const direct = new URL(created.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(created.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const database = await openDatabase({ kind: 'postgres', url: proxied.toString(), poolSize: 5 });
    t = await createTestApp(
      {
        OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        OPENAI_COMPATIBLE_MODEL: 'fake-model',
        RATE_LIMIT_PER_IP: '1000',
        AI_RATE_PER_IP: '1000',
      },
      { database },
    );
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    proxy.restore();
    await t.close();
    await proxy.close();
    await created.drop();
    await fake.close();
  });

  /** Daily and basic credits: what can pay for a basic model. */
  const credits = async (email: string) => {
    const w = await walletOf(t.database.db, email);
    return w.dailyCredit + w.basicCredit;
  };
  const ledgerStates = async (email: string) => {
    const w = await walletOf(t.database.db, email);
    return (await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, w.id)))
      .filter((l) => l.kind === 'reserve')
      .map((l) => l.state);
  };

  it('a turn whose end falls in an outage is settled once the database is back: answer kept, charged once', async () => {
    const u = await t.signUp();
    const res = await fetch(`${base}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Tell me #slow' }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('"text-delta"')) received += new TextDecoder().decode((await reader.read()).value);
    // The answer is still streaming (150 ms a word) when the database goes away; it is back 1.5 s later.
    proxy.cut();
    const back = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => proxy.restore());
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    await back;
    const chunks = parseUiStream(received);
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const chatId = chunks[0]!.messageMetadata.chatId as string;

    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token: u.token });
    expect(history.body.data.messages.map((m: { role: string; status: string }) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(await credits(u.email)).toBe(32);
    expect(await ledgerStates(u.email)).toEqual(['charged']);
  });

  it('while it is out of reach, requests are a clear 503; once it is back, everything works again', async () => {
    const u = await t.signUp();
    proxy.cut();
    try {
      const profile = await t.json('GET', '/api/user/profile', { token: u.token, lang: 'es' });
      expect(profile.status).toBe(503);
      expect(profile.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'El servicio no está disponible temporalmente. Inténtalo de nuevo en breve.',
      });
      const turn = await fetch(`${base}/api/ai/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}` },
        body: chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Anyone?' }),
      });
      expect(turn.status).toBe(503);
      const login = await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
      expect(login.status).toBe(503);
    } finally {
      proxy.restore();
    }
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
    const turn = await fetch(`${base}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Back?' }),
    });
    expect(turn.status).toBe(200);
    expect(parseUiStream(await turn.text()).at(-1)).toMatchObject({ type: 'finish' });
    await expect.poll(() => credits(u.email)).toBe(32);
    expect(await ledgerStates(u.email)).toEqual(['charged']);
  });
});
