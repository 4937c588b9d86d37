import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, walletLedger } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { startSlowPage } from '../../test/slow-page.js';
import { chatForm, parseUiStream, sendChat } from '../../test/sse.js';
import { ledgerMismatches, setCredits, walletOf } from '../../test/wallets.js';
import { hashSecret } from '../../lib/crypto.js';
import {
  CLAIM_KNOWN_WITH_RESERVATION,
  CLAIM_WITH_RESERVATION,
  claimValues,
  readClaimed,
  type ClaimColumns,
} from './chat.queries.js';

// A chat turn's life with others around it: turns racing on one conversation, an answer that cannot be kept, and a
// client that leaves before its answer starts.

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
let address: string;
// A web page that takes a second to answer.
let page: Awaited<ReturnType<typeof startSlowPage>>;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  page = await startSlowPage();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    AI_TIMEOUT_SECONDS: '10',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
    FETCH_ALLOW_HOSTS: page.host,
  });
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await page.close();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

const chat = (token: string, request: object, lang = 'en') => sendChat(t.app, token, request, { lang });

const credits = async (email: string) => {
  const w = await walletOf(t.database.db, email);
  return { left: w.dailyCredit + w.basicCredit, basicUse: w.basicUse };
};

/** Reservations ever made from this person's wallet (charged, refunded or still held). */
const reservations = async (email: string) => {
  const w = await walletOf(t.database.db, email);
  const rows = await t.database.db
    .select()
    .from(walletLedger)
    .where(and(eq(walletLedger.walletId, w.id), eq(walletLedger.kind, 'reserve')));
  return rows.length;
};

const history = async (token: string, chatId: string) =>
  (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token })).body.data;

/** The test database's pool on PostgreSQL; null on PGlite, which has one connection. */
const postgresPool = () => {
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
};

/** A follow-up turn's first statement, made by hand: the session, the conversation taken, the credit reserved. */
const claimWith = async (token: string, chatId: string, now = new Date()) => {
  const { found, reservation, also } = await t.app.services.billing.reserveForSession<ClaimColumns>(
    hashSecret(token),
    'basic',
    'chat',
    now,
    { statements: CLAIM_WITH_RESERVATION, values: claimValues(chatId, { turn: crypto.randomUUID(), seconds: 60 }) },
  );
  return { found, reservation, claimed: readClaimed(also) };
};

const completions = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('one turn at a time in a conversation', () => {
  it('turns sent while one is answering are refused before anything is reserved, and nothing is lost', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Question zero' });
    expect(first.status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        chat(u.token, { model: MODEL, chatId: first.chatId, text: `Question ${i + 1} #slow` }),
      ),
    );
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(served).toHaveLength(1);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.status).toBe(423);
      expect(r.json).toMatchObject({
        code: 'CONVERSATION_BUSY',
        message: 'This chat is still answering. Wait for it to finish, then send again.',
      });
    }
    // The one that was answered streamed a whole answer, and it was kept.
    const answered = served[0]!;
    expect(answered.chunks.some((c) => c.type === 'error')).toBe(false);
    expect(answered.text).toMatch(/^You asked: Question \d$/);
    const asked = answered.text.replace('You asked: ', '');
    const messages = (await history(u.token, first.chatId!)).messages;
    expect(messages.map((m: any) => [m.role, m.text])).toEqual([
      ['user', 'Question zero'],
      ['assistant', 'You asked: Question zero'],
      ['user', `${asked} #slow`],
      ['assistant', answered.text],
    ]);
    // Two answers, two credits; the refused turns reserved nothing.
    expect(await credits(u.email)).toEqual({ left: 31, basicUse: 2 });
    expect(await reservations(u.email)).toBe(2);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    // Once the answer is in, the conversation takes the next turn.
    const next = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Question nine' });
    expect(next.status).toBe(200);
    expect(next.text).toBe('You asked: Question nine');
  }, 30_000);

  it('edits and regenerations wait their turn too, and a refusal is told in the person’s language', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Original question' });
    const before = await history(u.token, first.chatId!);
    const [slow, edit, regenerate] = await Promise.all([
      chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Slow follow-up #slow' }),
      new Promise((r) => setTimeout(r, 100)).then(() =>
        chat(
          u.token,
          { model: MODEL, chatId: first.chatId, text: 'Edited', editMessageId: before.messages[0].id },
          'es',
        ),
      ),
      new Promise((r) => setTimeout(r, 100)).then(() =>
        chat(u.token, { model: MODEL, chatId: first.chatId, text: '', regenerate: true }, 'fr'),
      ),
    ]);
    expect(slow.status).toBe(200);
    expect(edit.status).toBe(423);
    expect(edit.json.message).toBe('Este chat todavía está respondiendo. Espera a que termine y vuelve a enviarlo.');
    expect(regenerate.status).toBe(423);
    expect(regenerate.json.message).toBe(
      'Cette discussion est encore en train de répondre. Attendez la fin de la réponse, puis renvoyez votre message.',
    );
    expect((await history(u.token, first.chatId!)).messages.map((m: any) => m.text)).toEqual([
      'Original question',
      'You asked: Original question',
      'Slow follow-up #slow',
      'You asked: Slow follow-up',
    ]);
  }, 30_000);

  it('a follow-up takes its conversation in the statement that reserves its credit, and only a live owner does', async () => {
    const u = await t.signUp();
    const other = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Held for a moment' });
    const before = await reservations(u.user.email);
    const now = new Date();

    // Someone else's token takes nothing and reserves nothing, from either wallet.
    const stranger = await claimWith(other.token, first.chatId!, now);
    expect(stranger.claimed).toBeUndefined();
    expect(stranger.reservation).toBeNull();

    // A session that has ended takes nothing either: run out, or signed out.
    const expired = await claimWith(u.token, first.chatId!, new Date(now.getTime() + 400 * 86_400_000));
    expect(expired.found).toBeDefined();
    expect(expired.claimed).toBeUndefined();
    expect(expired.reservation).toBeNull();
    expect(await reservations(u.user.email)).toBe(before);
    const gone = await t.signUp();
    const theirs = await chat(gone.token, { model: MODEL, text: 'Mine, before I sign out' });
    expect((await t.json('POST', '/api/user/logout', { token: gone.token })).status).toBe(200);
    const signedOut = await claimWith(gone.token, theirs.chatId!, now);
    expect(signedOut.found?.session.revokedAt).toBeInstanceOf(Date);
    expect(signedOut.claimed).toBeUndefined();
    expect(signedOut.reservation).toBeNull();
    expect(await reservations(gone.user.email)).toBe(1);

    // The owner takes it, with its messages, and the credit is reserved in the same statement.
    const taken = await claimWith(u.token, first.chatId!, now);
    expect(taken.claimed?.conversation).toMatchObject({ id: first.chatId, userId: u.user.id });
    expect(taken.claimed?.conversation.createdAt).toBeInstanceOf(Date);
    expect(taken.claimed?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(taken.reservation).not.toBeNull();
    expect(await reservations(u.user.email)).toBe(before + 1);

    // Held now: a second claim takes nothing and reserves nothing, and a turn sent through the API is refused.
    const again = await claimWith(u.token, first.chatId!, now);
    expect(again.claimed).toBeUndefined();
    expect(again.reservation).toBeNull();
    const busy = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Me too?' });
    expect(busy.status).toBe(423);
    expect(await reservations(u.user.email)).toBe(before + 1);
    await taken.reservation!.refund();
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a follow-up refused after its statement took the conversation gives it back', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'First question' });
    const hold = async () => {
      const [row] = await t.database.db
        .select({ until: conversations.answeringUntil })
        .from(conversations)
        .where(eq(conversations.id, first.chatId!));
      return row!.until;
    };
    const follow = (text: string) => chat(u.token, { model: MODEL, chatId: first.chatId, text });

    // Out of credits: the statement took the conversation and reserved nothing.
    await setCredits(t.database.db, u.user.email, { dailyCredit: 0, basicCredit: 0 });
    expect((await follow('Without credits')).status).toBe(402);
    expect(await hold()).toBeNull();

    // The wallet is due for its daily renewal, and the renewal fails after the statement took the conversation.
    await setCredits(t.database.db, u.user.email, { basicCredit: 5 });
    await t.database.db.execute(
      sql`UPDATE wallets SET daily_renews_at = now() - interval '1 hour' WHERE user_id = ${u.user.id}::uuid`,
    );
    await t.database.db.execute(sql`CREATE FUNCTION renewal_down() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.daily_renews_at IS DISTINCT FROM OLD.daily_renews_at THEN RAISE EXCEPTION 'renewal down'; END IF;
        RETURN NEW;
      END $$`);
    await t.database.db.execute(
      sql`CREATE TRIGGER renewal_down BEFORE UPDATE ON wallets FOR EACH ROW EXECUTE FUNCTION renewal_down()`,
    );
    try {
      expect((await follow('While renewals fail')).status).toBe(500);
      expect(await hold()).toBeNull();
    } finally {
      await t.database.db.execute(sql`DROP TRIGGER renewal_down ON wallets`);
      await t.database.db.execute(sql`DROP FUNCTION renewal_down()`);
    }

    // The next follow-up is answered, not refused as busy.
    const next = await follow('Back again');
    expect(next.status).toBe(200);
    expect(next.text).toBe('You asked: Back again');
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a turn sent while the one before stores its answer is refused; the next one reads that answer', async (ctx) => {
    const pool = postgresPool();
    if (!pool) return ctx.skip(); // one connection on PGlite: no transaction runs beside another
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'First question' });
    const take = async () => {
      const { claimed, reservation } = await claimWith(u.token, first.chatId!);
      await reservation?.refund();
      return claimed;
    };
    await t.database.db
      .update(conversations)
      .set({ answeringTurn: crypto.randomUUID(), answeringUntil: sql`now() + interval '1 minute'` })
      .where(eq(conversations.id, first.chatId!));
    // The turn before stores its answer and lets go of the conversation in one transaction, not committed yet.
    const before = await pool.connect();
    try {
      await before.query('BEGIN');
      await before.query(
        `INSERT INTO chat_messages (conversation_id, position, role, parts, meta)
         VALUES ($1, 2, 'user', '[{"type":"text","text":"Second question"}]', '{}'),
                ($1, 3, 'assistant', '[{"type":"text","text":"Second answer"}]', '{}')`,
        [first.chatId],
      );
      await before.query('UPDATE conversations SET answering_turn = NULL, answering_until = NULL WHERE id = $1', [
        first.chatId,
      ]);
      expect(await take()).toBeUndefined();
      await before.query('COMMIT');
    } finally {
      before.release();
    }
    const claimed = await take();
    expect(claimed?.messages.map((m) => [m.position, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [2, 'user'],
      [3, 'assistant'],
    ]);
    expect(claimed?.messages[3]).toMatchObject({ parts: [{ type: 'text', text: 'Second answer' }], meta: {} });
    expect(claimed?.messages[3]!.createdAt).toBeInstanceOf(Date);
  });

  it('a conversation held by a turn whose server stopped is free again once the hold runs out', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Before the crash' });
    const hold = (until: ReturnType<typeof sql>) =>
      t.database.db
        .update(conversations)
        .set({ answeringTurn: crypto.randomUUID(), answeringUntil: until })
        .where(eq(conversations.id, first.chatId!));
    await hold(sql`now() + interval '1 hour'`);
    const held = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Anyone there?' });
    expect(held.status).toBe(423);
    expect(held.json.code).toBe('CONVERSATION_BUSY');
    await hold(sql`now() - interval '1 second'`);
    const after = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Anyone there?' });
    expect(after.status).toBe(200);
    expect(after.text).toBe('You asked: Anyone there?');
    // Someone else's conversation, or one that does not exist, is still simply not found.
    const other = await t.signUp();
    expect((await chat(other.token, { model: MODEL, chatId: first.chatId, text: 'Mine?' })).status).toBe(404);
    expect(await credits(other.email)).toEqual({ left: 33, basicUse: 0 });
  });

  it('an answer that cannot be kept is not charged, and is not blamed on the provider', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Keep this' });
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });
    const res = await fetch(`${address}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: MODEL, chatId: first.chatId, text: 'Then this #slow' }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('"text-delta"')) received += new TextDecoder().decode((await reader.read()).value);
    // The question is stored; then the conversation is deleted while its answer streams: the answer has nowhere to go.
    await expect.poll(async () => (await history(u.token, first.chatId!)).messages.length).toBe(3);
    const deleted = await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${first.chatId}`, {
      token: u.token,
    });
    expect(deleted.status).toBe(200);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    expect(await credits(u.email)).toEqual({ left: 32, basicUse: 1 });
    const chunks = parseUiStream(received);
    expect(chunks.filter((c) => c.type === 'error').map((c) => c.errorText)).toEqual([
      'This message could not be saved, so it was not charged. Please try again.',
    ]);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  }, 20_000);
});

describe('a client that leaves before its answer starts', () => {
  it('is not answered or charged when it leaves while its page is read', async () => {
    const u = await t.signUp();
    const calls = completions();
    const abort = new AbortController();
    const started = fetch(`${address}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: MODEL, text: 'What does this page say?', url: page.url }),
      signal: abort.signal,
    });
    const givenUp = page.givenUp();
    setTimeout(() => abort.abort(), 300);
    await expect(started).rejects.toThrow();
    // The page's reading stops too: its request is closed before the page has answered (a reading that went on would
    // have read the whole page, at 1 s).
    await expect.poll(() => page.givenUp(), { timeout: 3000, interval: 20 }).toBe(givenUp + 1);
    // By 2 s a turn that went on would have called the provider.
    await new Promise((r) => setTimeout(r, 2000));
    expect(completions()).toBe(calls);
    expect(await credits(u.email)).toEqual({ left: 33, basicUse: 0 });
    // Nothing of the turn is kept.
    expect((await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token })).body.data).toEqual([]);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  }, 20_000);

  it('leaves its conversation free for the next turn', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Start here' });
    const abort = new AbortController();
    const started = fetch(`${address}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: chatForm({ model: MODEL, chatId: first.chatId, text: 'Read this', url: page.url }),
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 300);
    await expect(started).rejects.toThrow();
    await expect
      .poll(async () => (await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Still there?' })).status, {
        timeout: 5000,
      })
      .toBe(200);
    expect(await credits(u.email)).toEqual({ left: 31, basicUse: 2 });
  }, 20_000);
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')('a follow-up’s first statement on PostgreSQL', () => {
  // Every follow-up turn runs one of them (the second when it knows the messages), in the generic plan a prepared
  // statement ends up with: no table is joined by hashing it (as billing.test.ts checks of the session statements),
  // and the conversation's history is read before the wallet is locked, so that the wallet (an organization's members
  // all spend from one) is not held meanwhile.
  it('joins nothing by hashing, and reads the history before it locks the wallet', async () => {
    const plans = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
      const found: string[] = [];
      const statements = [...Object.values(CLAIM_WITH_RESERVATION), ...Object.values(CLAIM_KNOWN_WITH_RESERVATION)];
      for (const [i, s] of statements.entries()) {
        const name = `plan_check_${i}`;
        await tx.execute(sql.raw(`PREPARE ${name} AS ${s.text}`));
        try {
          const values = `'h', 1, 'chat', now(), gen_random_uuid(), gen_random_uuid(), 60`;
          const result = (await tx.execute(sql.raw(`EXPLAIN EXECUTE ${name}(${values})`))) as unknown as {
            rows: { 'QUERY PLAN': string }[];
          };
          found.push(result.rows.map((r) => r['QUERY PLAN']).join('\n'));
        } finally {
          await tx.execute(sql.raw(`DEALLOCATE ${name}`));
        }
      }
      return found;
    });
    expect(plans).toHaveLength(6);
    for (const plan of plans) {
      expect(plan).not.toMatch(/Hash/); // a Hash node ("hashed SubPlan": the caller's memberships, by key)
      // The wallet's lock (`cur`, up to the next CTE) waits for the key it locks, which needs the history read.
      const lock = plan.slice(plan.indexOf('CTE cur'), plan.indexOf('CTE member'));
      expect(lock).toMatch(/^CTE cur\s+-> {2}LockRows[\s\S]*CTE Scan on history/);
    }
  });
});
