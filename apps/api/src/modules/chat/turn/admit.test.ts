import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatMessages, conversations, walletLedger } from '../../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { startFakeOpenAI } from '../../../test/fake-openai.js';
import { sendChat } from '../../../test/sse.js';
import { ledgerMismatches, walletOf } from '../../../test/wallets.js';
import { CLAIM_KNOWN_WITH_RESERVATION, CLAIM_WITH_RESERVATION } from '../chat.queries.js';

// A follow-up turn in a conversation this server answered last starts from the messages it wrote then, and builds
// its provider request while the statement that takes the conversation runs; the statement checks them. Here the
// conversation is changed behind the server's back, as another server of the same deployment would: what the turn
// knew must never reach the provider.

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    AI_TIMEOUT_SECONDS: '10',
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

const chat = (token: string, request: object) => sendChat(t.app, token, request);

/** Which statement each follow-up turn's reservation ran: 'known' (the messages checked by key) or 'read'. */
function watchClaims() {
  const billing = t.app.services.billing;
  const reserve = billing.reserveForSession.bind(billing);
  const seen: string[] = [];
  vi.spyOn(billing, 'reserveForSession').mockImplementation((...args) => {
    const statements = args[4]?.statements as unknown;
    if (statements === CLAIM_KNOWN_WITH_RESERVATION) seen.push('known');
    else if (statements === CLAIM_WITH_RESERVATION) seen.push('read');
    return reserve(...args);
  });
  return seen;
}

/** What the provider was asked in the streamed chat requests made since `from` (titles apart). */
const asked = (from: number) =>
  fake.requests
    .slice(from)
    .filter((r) => r.path.endsWith('/chat/completions') && r.body.stream)
    .map((r) =>
      (r.body.messages as { role: string; content: string }[])
        .filter((m) => m.role !== 'system')
        .map((m) => `${m.role}: ${m.content}`),
    );

const history = async (token: string, chatId: string) =>
  (
    (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${chatId}`, { token })).body.data.messages as {
      id: string;
      role: string;
      text: string;
    }[]
  ).map((m) => `${m.role}: ${m.text}`);

/** Messages written by someone else than this server: another server of the deployment answered a turn. */
const appendedElsewhere = (chatId: string, position: number, question: string) =>
  t.database.db.insert(chatMessages).values([
    { conversationId: chatId, position, role: 'user', parts: [{ type: 'text', text: question }], meta: {} },
    {
      conversationId: chatId,
      position: position + 1,
      role: 'assistant',
      parts: [{ type: 'text', text: `Elsewhere: ${question}` }],
      meta: {},
    },
  ]);

const reserves = async (email: string) => {
  const w = await walletOf(t.database.db, email);
  const rows = await t.database.db
    .select({ id: walletLedger.id })
    .from(walletLedger)
    .where(and(eq(walletLedger.walletId, w.id), eq(walletLedger.kind, 'reserve')));
  return { reserved: rows.length, basicUse: w.basicUse };
};

const held = async (chatId: string) => {
  const [row] = await t.database.db
    .select({ turn: conversations.answeringTurn })
    .from(conversations)
    .where(eq(conversations.id, chatId));
  return row!.turn;
};

describe('a follow-up turn that knows its conversation’s messages', () => {
  it('starts from the messages this server wrote, checked by the statement that takes the conversation', async () => {
    const u = await t.signUp();
    const claims = watchClaims();
    const first = await chat(u.token, { model: MODEL, text: 'First question' });
    expect(first.status).toBe(200);
    const from = fake.requests.length;
    const second = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Second question' });
    const third = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Third question' });
    expect([second.text, third.text]).toEqual(['You asked: Second question', 'You asked: Third question']);
    expect(claims).toEqual(['known', 'known']);
    expect(asked(from)).toEqual([
      ['user: First question', 'assistant: You asked: First question', 'user: Second question'],
      [
        'user: First question',
        'assistant: You asked: First question',
        'user: Second question',
        'assistant: You asked: Second question',
        'user: Third question',
      ],
    ]);
    expect(await reserves(u.email)).toEqual({ reserved: 3, basicUse: 3 });
  });

  it('starts again from the statement’s messages when another server answered in between, and sends only those', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'One' });
    await appendedElsewhere(first.chatId!, 2, 'Two');
    const claims = watchClaims();
    const from = fake.requests.length;
    const third = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Three' });
    expect(third.status).toBe(200);
    expect(third.text).toBe('You asked: Three');
    expect(claims).toEqual(['known', 'read']);
    // The request built from what this server knew was never sent.
    const all = ['user: One', 'assistant: You asked: One', 'user: Two', 'assistant: Elsewhere: Two'];
    expect(asked(from)).toEqual([[...all, 'user: Three']]);
    expect(await history(u.token, first.chatId!)).toEqual([...all, 'user: Three', 'assistant: You asked: Three']);
    // Two answers, two credits: the turn that started again gave its first reservation back.
    expect(await reserves(u.email)).toEqual({ reserved: 3, basicUse: 2 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    expect(await held(first.chatId!)).toBeNull();
    // And the turn after it knows the messages again.
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Four' });
    expect(claims).toEqual(['known', 'read', 'known']);
  });

  it('starts again when the messages it knew were replaced', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Alpha' });
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Beta' });
    // Another server took the last exchange back (an edit of "Beta" there), then answered "Gamma".
    await t.database.db
      .delete(chatMessages)
      .where(and(eq(chatMessages.conversationId, first.chatId!), gte(chatMessages.position, 2)));
    await appendedElsewhere(first.chatId!, 2, 'Gamma');
    const claims = watchClaims();
    const from = fake.requests.length;
    const next = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Delta' });
    expect(next.status).toBe(200);
    expect(claims).toEqual(['known', 'read']);
    const all = ['user: Alpha', 'assistant: You asked: Alpha', 'user: Gamma', 'assistant: Elsewhere: Gamma'];
    expect(asked(from)).toEqual([[...all, 'user: Delta']]);
    expect(await history(u.token, first.chatId!)).toEqual([...all, 'user: Delta', 'assistant: You asked: Delta']);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('edits a message it did not know of, rather than refusing it', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Alpha' });
    await appendedElsewhere(first.chatId!, 2, 'Beta');
    const page = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${first.chatId}`, {
      token: u.token,
    });
    const beta = (page.body.data.messages as { id: string; text: string }[]).find((m) => m.text === 'Beta')!;
    const claims = watchClaims();
    const edited = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Gamma', editMessageId: beta.id });
    expect(edited.status).toBe(200);
    expect(edited.text).toBe('You asked: Gamma');
    expect(claims).toEqual(['known', 'read']);
    expect(await history(u.token, first.chatId!)).toEqual([
      'user: Alpha',
      'assistant: You asked: Alpha',
      'user: Gamma',
      'assistant: You asked: Gamma',
    ]);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('knows the messages after an edit and after a regeneration, cut where the database cut them', async () => {
    const u = await t.signUp();
    const claims = watchClaims();
    const first = await chat(u.token, { model: MODEL, text: 'One' });
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Two' });
    const two = (await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${first.chatId}`, { token: u.token }))
      .body.data.messages[2] as { id: string };
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Two, edited', editMessageId: two.id });
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Three' });
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: '', regenerate: true });
    const from = fake.requests.length;
    await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'Four' });
    // Every follow-up, the edit and the regeneration included, started from what the turn before left.
    expect(claims).toEqual(['known', 'known', 'known', 'known', 'known']);
    const all = [
      'user: One',
      'assistant: You asked: One',
      'user: Two, edited',
      'assistant: You asked: Two, edited',
      'user: Three',
      'assistant: You asked: Three',
    ];
    expect(asked(from)).toEqual([[...all, 'user: Four']]);
    expect(await history(u.token, first.chatId!)).toEqual([...all, 'user: Four', 'assistant: You asked: Four']);
  });

  it('tells what the statement found before anything found in messages it has not confirmed', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Held soon' });
    // Another server's turn holds the conversation now.
    await t.database.db
      .update(conversations)
      .set({ answeringTurn: crypto.randomUUID(), answeringUntil: sql`now() + interval '1 minute'` })
      .where(eq(conversations.id, first.chatId!));
    const claims = watchClaims();
    const from = fake.requests.length;
    const edit = await chat(u.token, {
      model: MODEL,
      chatId: first.chatId,
      text: 'Edit of a message I do not know',
      editMessageId: crypto.randomUUID(),
    });
    expect(claims).toEqual(['known']);
    expect(edit.status).toBe(423);
    expect(asked(from)).toEqual([]);
    expect(await reserves(u.email)).toEqual({ reserved: 1, basicUse: 1 });
  });

  it('sends nothing for a token signed out since', async () => {
    const u = await t.signUp();
    const first = await chat(u.token, { model: MODEL, text: 'Before I sign out' });
    expect((await t.json('POST', '/api/user/logout', { token: u.token })).status).toBe(200);
    const claims = watchClaims();
    const from = fake.requests.length;
    const after = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'After' });
    expect(after.status).toBe(401);
    expect(claims).toEqual(['known']);
    expect(asked(from)).toEqual([]);
    expect(await held(first.chatId!)).toBeNull();
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('are forgotten when their conversation is deleted, one or all', async () => {
    const u = await t.signUp();
    const histories = t.app.services.histories;
    const one = await chat(u.token, { model: MODEL, text: 'Delete me' });
    expect(
      (await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${one.chatId}`, { token: u.token })).status,
    ).toBe(200);
    expect(histories.take(one.chatId!, u.user.id)).toBeUndefined();
    const two = await chat(u.token, { model: MODEL, text: 'Delete us' });
    const three = await chat(u.token, { model: MODEL, text: 'Delete us too' });
    expect((await t.json('DELETE', '/api/mongo/users/chat/histories/delete', { token: u.token })).status).toBe(200);
    expect(histories.take(two.chatId!, u.user.id)).toBeUndefined();
    expect(histories.take(three.chatId!, u.user.id)).toBeUndefined();
  });

  it('is never someone else’s: another person’s token reads nothing and is told the conversation is not found', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const theirs = await chat(owner.token, { model: MODEL, text: 'Private' });
    await chat(other.token, { model: MODEL, text: 'Mine' }); // the other person's token is known to the server now
    const claims = watchClaims();
    const from = fake.requests.length;
    const tried = await chat(other.token, { model: MODEL, chatId: theirs.chatId, text: 'Show me' });
    expect(tried.status).toBe(404);
    expect(claims).toEqual(['read']);
    expect(asked(from)).toEqual([]);
    expect(await held(theirs.chatId!)).toBeNull();
    expect(await reserves(other.email)).toEqual({ reserved: 1, basicUse: 1 });
    // The owner's next turn still knows its messages.
    await chat(owner.token, { model: MODEL, chatId: theirs.chatId, text: 'Still mine' });
    expect(claims).toEqual(['read', 'known']);
  });
});
