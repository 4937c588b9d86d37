import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLogs, walletLedger } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { startSlowPage } from '../../test/slow-page.js';
import { ledgerMismatches, walletOf } from '../../test/wallets.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
let address: string;
// A web page that takes a second to answer.
let page: Awaited<ReturnType<typeof startSlowPage>>;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  page = await startSlowPage();
  t = await createTestApp({
    FETCH_ALLOW_HOSTS: page.host,
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    // Far longer than the test waits: only the client's going away can end a call the provider never answers.
    AI_TIMEOUT_SECONDS: '120',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await page.close();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

describe('a writing call whose client goes away', () => {
  it.each([
    ['rewrite', '/api/ai/edit-message', { text: 'pls fix this #hang', model: MODEL }],
    ['mail reply', '/api/ai/mail-message', { thread: 'Can we meet? #hang', model: MODEL }],
    ['summary', '/api/ai/summary', { kind: 'mail', text: 'A long thread #hang', model: MODEL }],
  ])('%s: stops the provider call, and its credit is refunded, not charged', async (_, path, body) => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    const asked = fake.requests.length;
    const client = new AbortController();
    const answered = fetch(`${address}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: client.signal,
    }).catch((error: Error) => error);
    // The provider has the call (and never answers it); the client leaves.
    await expect.poll(() => fake.requests.length, { timeout: 5000 }).toBeGreaterThan(asked);
    const reserved = await walletOf(t.database.db, u.email);
    expect(reserved.dailyCredit + reserved.basicCredit).toBe(before.dailyCredit + before.basicCredit - 1);
    client.abort();
    expect(await answered).toBeInstanceOf(Error);

    await expect
      .poll(
        async () =>
          (await t.database.db.select().from(walletLedger).where(eq(walletLedger.walletId, before.id)))
            .filter((r) => r.kind === 'reserve')
            .map((r) => r.state),
        { timeout: 3000 },
      )
      .toEqual(['refunded']);
    const after = await walletOf(t.database.db, u.email);
    expect(after).toMatchObject({ dailyCredit: before.dailyCredit, basicCredit: before.basicCredit, basicUse: 0 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    // A client that leaves is not a failure of the server: nothing is kept for the admin's error log.
    expect(await t.database.db.select().from(errorLogs)).toEqual([]);
  });

  it('a summary of a page: the page is no longer read, and the provider is not called', async () => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    const asked = fake.requests.length;
    const givenUp = page.givenUp();
    const client = new AbortController();
    const answered = fetch(`${address}/api/ai/summary`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'page', url: page.url, model: MODEL }),
      signal: client.signal,
    }).catch((error: Error) => error);
    setTimeout(() => client.abort(), 300);
    expect(await answered).toBeInstanceOf(Error);
    // A reading that went on would have read the whole page, at 1 s; then called the provider.
    await expect.poll(() => page.givenUp(), { timeout: 3000, interval: 20 }).toBe(givenUp + 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.requests.length).toBe(asked);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      dailyCredit: before.dailyCredit,
      basicCredit: before.basicCredit,
      basicUse: 0,
    });
  });
});
