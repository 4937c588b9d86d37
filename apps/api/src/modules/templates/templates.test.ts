import { SHORTCUTS_MAX } from '@parley/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templates as templatesTable } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { ledgerMismatches, walletOf } from '../../test/wallets.js';
import { cleanSignatureHtml } from './clean-html.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    RATE_LIMIT_PER_IP: '10000',
    AI_RATE_PER_USER: '10000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, body?: unknown) =>
  t.json(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
const db = () => t.database.db;

const addTemplate = async (token: string, title: string, extra: Record<string, unknown> = {}) => {
  const res = await call('POST', '/api/template/add', token, {
    title,
    body: `Hello {{first_name}}, ${title}`,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; position: number };
};
const titles = async (token: string) =>
  ((await call('GET', '/api/template/getAll', token)).body.data.templates as { title: string }[]).map((x) => x.title);

describe('templates', () => {
  it('are added last, read, changed and deleted by their owner; another person gets 404 and changes nothing', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const a = await addTemplate(me.token, 'First', { kind: 'message', language: 'FRENCH', tone: 'FRIENDLY' });
    const b = await addTemplate(me.token, 'Second');
    expect([a.position, b.position]).toEqual([0, 1]);
    const one = await call('GET', `/api/template/get/${a.id}`, me.token);
    expect(one.body.data).toMatchObject({ title: 'First', kind: 'message', language: 'FRENCH', tone: 'FRIENDLY' });

    const changed = await call('PUT', `/api/template/update/${b.id}`, me.token, {
      title: 'Second, changed',
      body: 'Thanks {{sender_name}}',
      kind: 'customReply',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ title: 'Second, changed', kind: 'customReply', position: 1 });

    for (const [method, url, body] of [
      ['GET', `/api/template/get/${a.id}`, undefined],
      ['PUT', `/api/template/update/${a.id}`, { title: 'Stolen', body: 'x' }],
      ['DELETE', `/api/template/delete/${a.id}`, undefined],
    ] as [Method, string, unknown][]) {
      const res = await call(method, url, other.token, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.message).toBe('Not found.');
    }
    expect((await call('GET', `/api/template/get/${a.id}`)).status).toBe(401);
    expect(await titles(me.token)).toEqual(['First', 'Second, changed']);
    expect(await titles(other.token)).toEqual([]);

    expect((await call('DELETE', `/api/template/delete/${a.id}`, me.token)).body.data).toEqual({ deleted: 1 });
    expect((await call('DELETE', `/api/template/delete/${a.id}`, me.token)).status).toBe(404);
    expect((await call('GET', '/api/template/get/not-a-uuid', me.token)).status).toBe(400);
  });

  it('refuses fields it does not know (owner, position) and bounds, changing nothing', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const a = await addTemplate(me.token, 'Mine');
    const attempts: [Method, string, unknown][] = [
      ['POST', '/api/template/add', { title: 'x', body: 'y', userId: other.user.id }],
      ['POST', '/api/template/add', { title: 'x', body: 'y', position: -5 }],
      ['PUT', `/api/template/update/${a.id}`, { title: 'x', body: 'y', id: 'other' }],
      ['POST', '/api/template/add', { title: '', body: 'y' }],
      ['POST', '/api/template/add', { title: 'x'.repeat(121), body: 'y' }],
      ['POST', '/api/template/add', { title: 'x', body: 'y'.repeat(10_001) }],
      ['POST', '/api/template/add', { title: 'x', body: 'y', kind: 'sms' }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(method, url, me.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(await titles(me.token)).toEqual(['Mine']);
    expect(await titles(other.token)).toEqual([]);
  });

  it('reorder takes every id once; a set changed meanwhile is refused; concurrent edits lose nothing', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const [a, b, c] = [
      await addTemplate(me.token, 'A'),
      await addTemplate(me.token, 'B'),
      await addTemplate(me.token, 'C'),
    ];
    const theirs = await addTemplate(other.token, 'Theirs');
    const moved = await call('POST', '/api/template/reorder', me.token, { ids: [c.id, a.id, b.id] });
    expect(moved.status).toBe(200);
    expect(moved.body.data.templates.map((x: { title: string; position: number }) => [x.title, x.position])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ]);
    // Missing one, someone else's, twice the same: refused.
    for (const ids of [
      [c.id, a.id],
      [c.id, a.id, theirs.id],
      [c.id, a.id, a.id],
    ]) {
      const res = await call('POST', '/api/template/reorder', me.token, { ids });
      expect(res.status).toBe(400);
    }
    expect(await titles(me.token)).toEqual(['C', 'A', 'B']);
    expect(await titles(other.token)).toEqual(['Theirs']);

    // A reorder racing an add and a delete: each either applies whole or is refused; nothing is lost or doubled.
    const answers = await Promise.all([
      call('POST', '/api/template/reorder', me.token, { ids: [b.id, a.id, c.id] }),
      call('POST', '/api/template/add', me.token, { title: 'D', body: 'd' }),
      call('DELETE', `/api/template/delete/${a.id}`, me.token),
      call('POST', '/api/template/reorder', me.token, { ids: [a.id, b.id, c.id] }),
    ]);
    expect(answers[1]!.status).toBe(200);
    expect(answers[2]!.status).toBe(200);
    for (const r of [answers[0]!, answers[3]!]) expect([200, 400]).toContain(r.status);
    const rows = await db().select().from(templatesTable).where(eq(templatesTable.userId, me.user.id));
    expect(rows.map((r) => r.title).sort()).toEqual(['B', 'C', 'D']);
    expect(new Set(rows.map((r) => r.position)).size).toBe(3);
    expect((await titles(me.token)).at(-1)).toBe('D');
  });
});

describe('signatures', () => {
  it('keep formatting and links, lose anything that runs; one default per place', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const hostile =
      '<p><b>Ann</b> <a href="https://example.com" onclick="steal()">site</a> <a href="javascript:alert(1)">x</a></p>' +
      '<img src=x onerror=alert(1)><img src="https://example.com/logo.png" alt="logo">' +
      '<script>alert(1)</script><style>p{}</style><iframe src="https://evil.test"></iframe>' +
      '<svg><script>alert(2)</script></svg><div style="background:url(javascript:x)">ok</div>';
    const first = await call('POST', '/api/template/signature/add', me.token, {
      name: 'Work',
      html: hostile,
      defaultFor: ['gmail', 'Me@Example.com'],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const html = first.body.data.html as string;
    expect(html).toContain('<b>Ann</b>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
    expect(html).toContain('<img alt="logo" src="https://example.com/logo.png" />');
    expect(html.match(/<img/g)).toHaveLength(1);
    for (const bad of [
      'onclick',
      'onerror',
      'javascript:',
      '<script',
      '<style',
      '<iframe',
      '<svg',
      'style=',
      'src="x"',
    ]) {
      expect(html, bad).not.toContain(bad);
    }
    expect(first.body.data.defaultFor).toEqual(['gmail', 'me@example.com']);

    const second = await call('POST', '/api/template/signature/add', me.token, {
      name: 'Personal',
      html: '<i>A.</i>',
      defaultFor: ['gmail'],
    });
    const list = (await call('GET', '/api/template/signature/getAll', me.token)).body.data.signatures as {
      name: string;
      defaultFor: string[];
    }[];
    expect(list.map((s) => [s.name, s.defaultFor])).toEqual([
      ['Work', ['me@example.com']],
      ['Personal', ['gmail']],
    ]);
    // Another person's signature: 404, unchanged.
    const stolen = await call('PUT', `/api/template/signature/update/${second.body.data.id}`, other.token, {
      name: 'x',
      html: 'x',
      defaultFor: [],
    });
    expect(stolen.status).toBe(404);
    expect((await call('DELETE', `/api/template/signature/delete/${second.body.data.id}`, other.token)).status).toBe(
      404,
    );
    expect(
      (await call('POST', '/api/template/signature/add', me.token, { name: 'x', html: 'x', defaultFor: ['yahoo'] }))
        .status,
    ).toBe(400);
  });

  it('a null byte, a huge picture size or a bad path is a clear 400, never a 500', async () => {
    const me = await t.signUp();
    const nul = await call('POST', '/api/template/signature/add', me.token, { name: 'n', html: 'a\u0000b' });
    expect(nul.status).toBe(200);
    expect(nul.body.data.html).toBe('ab');
    expect(cleanSignatureHtml('<img src="https://x.test/a.png" width="99999999" height="48">')).toBe(
      '<img src="https://x.test/a.png" height="48" />',
    );
    const badPath = await call('GET', '/api/template/get/%E0%A4%A', me.token);
    expect(badPath.status).toBe(400);
    expect(badPath.body).toMatchObject({ code: 'BAD_REQUEST', message: 'This request could not be understood.' });
    const long = await call('GET', `/api/template/get/${'a'.repeat(300)}`, me.token);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('BAD_REQUEST');
  });

  it('the cleaner keeps mail-safe HTML only', () => {
    expect(cleanSignatureHtml('<a href="//evil.test">x</a>')).toBe(
      '<a target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(cleanSignatureHtml('<img src="http://plain.test/a.png">')).toBe('');
    expect(cleanSignatureHtml('<a href="mailto:a@b.c">m</a>')).toContain('href="mailto:a@b.c"');
    expect(cleanSignatureHtml('<form action="/x"><input name=a></form>text')).toBe('text');
  });
});

describe('shortcuts', () => {
  it('keys are unique per person, validated, and checked; another person’s are theirs', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const thx = await call('POST', '/api/shortcut-template/', me.token, { key: 'THX', text: 'Thank you!' });
    expect(thx.status, JSON.stringify(thx.body)).toBe(200);
    expect(thx.body.data.key).toBe('thx');
    const again = await call('POST', '/api/shortcut-template/', me.token, { key: 'thx', text: 'Again' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('You already have a shortcut with this key.');
    expect((await call('POST', '/api/shortcut-template/', other.token, { key: 'thx', text: 'Mine too' })).status).toBe(
      200,
    );
    for (const key of ['', 'has space', ';thx', 'x'.repeat(33), 'é']) {
      expect((await call('POST', '/api/shortcut-template/', me.token, { key, text: 'x' })).status, key).toBe(400);
    }
    expect((await call('GET', '/api/shortcut-template/exist/?key=THX', me.token)).body.data).toEqual({
      exists: true,
      valid: true,
    });
    expect((await call('GET', '/api/shortcut-template/exist/?key=nope', me.token)).body.data).toEqual({
      exists: false,
      valid: true,
    });
    expect((await call('GET', '/api/shortcut-template/exist/?key=a%20b', me.token)).body.data.valid).toBe(false);

    // Two adds of one key at once: one wins.
    const both = await Promise.all([
      call('POST', '/api/shortcut-template/', me.token, { key: 'brb', text: 'one' }),
      call('POST', '/api/shortcut-template/', me.token, { key: 'brb', text: 'two' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);

    // Renaming onto a taken key is refused; another person's id is 404.
    const brb = both.find((r) => r.status === 200)!.body.data.id as string;
    expect((await call('PUT', `/api/shortcut-template/${brb}`, me.token, { key: 'thx', text: 'x' })).status).toBe(400);
    expect((await call('PUT', `/api/shortcut-template/${brb}`, other.token, { key: 'zz', text: 'x' })).status).toBe(
      404,
    );
    expect((await call('DELETE', `/api/shortcut-template/${brb}`, other.token)).status).toBe(404);
    const list = (await call('GET', '/api/shortcut-template/templates', me.token)).body.data.shortcuts as {
      key: string;
    }[];
    expect(list.map((s) => s.key)).toEqual(['brb', 'thx']);
  });
});

describe('import', () => {
  it('adds templates, signatures and free shortcut keys; reports taken keys; holds the limits', async () => {
    const me = await t.signUp();
    await addTemplate(me.token, 'Existing');
    await call('POST', '/api/shortcut-template/', me.token, { key: 'thx', text: 'Thanks' });
    const res = await call('POST', '/api/template/import', me.token, {
      templates: [{ title: 'Imported', body: 'Body' }],
      signatures: [{ name: 'Sig', html: '<b>x</b><script>1</script>', defaultFor: ['outlook'] }],
      shortcuts: [
        { key: 'thx', text: 'Other thanks' },
        { key: 'bye', text: 'Bye' },
        { key: 'bye', text: 'Bye twice' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ templates: 1, signatures: 1, shortcuts: 1, skippedKeys: ['thx', 'bye'] });
    expect(await titles(me.token)).toEqual(['Existing', 'Imported']);
    const sigs = (await call('GET', '/api/template/signature/getAll', me.token)).body.data.signatures;
    expect(sigs[0].html).toBe('<b>x</b>');
    // The same file again adds nothing, and the signature keeps its default.
    const again = await call('POST', '/api/template/import', me.token, {
      templates: [{ title: 'Imported', body: 'Body' }],
      signatures: [{ name: 'Sig', html: '<b>x</b>', defaultFor: ['outlook'] }],
      shortcuts: [{ key: 'bye', text: 'Bye' }],
    });
    expect(again.body.data).toEqual({ templates: 0, signatures: 0, shortcuts: 0, skippedKeys: ['bye'] });
    expect(await titles(me.token)).toEqual(['Existing', 'Imported']);
    const sigsAfter = (await call('GET', '/api/template/signature/getAll', me.token)).body.data.signatures;
    expect(sigsAfter.map((x: { id: string; defaultFor: string[] }) => [x.id, x.defaultFor])).toEqual([
      [sigs[0].id, ['outlook']],
    ]);

    const many = Array.from({ length: SHORTCUTS_MAX }, (_, i) => ({ key: `k${i}`, text: 'x' }));
    const over = await call('POST', '/api/template/import', me.token, { shortcuts: many });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(`You have reached the limit of ${SHORTCUTS_MAX}. Delete some first.`);
    // All or nothing.
    expect((await call('GET', '/api/shortcut-template/', me.token)).body.data.shortcuts).toHaveLength(2);
  });
});

describe('pace and size', () => {
  it('an export as large as the limits allow imports again; writes are paced per person', async () => {
    const me = await t.signUp();
    const templates = Array.from({ length: 300 }, (_, i) => ({ title: `T${i}`, body: 'é'.repeat(3_000) }));
    const big = await call('POST', '/api/template/import', me.token, { templates });
    expect(big.status, JSON.stringify(big.body).slice(0, 200)).toBe(200);
    expect(big.body.data.templates).toBe(300);
    const answers = await Promise.all(
      Array.from({ length: 125 }, (_, i) =>
        call('POST', '/api/shortcut-template/', me.token, { key: `p${i}`, text: 'x' }),
      ),
    );
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(answers.find((a) => a.status === 429)!.headers['retry-after']).toBeDefined();
  });
});

describe('AI-made templates', () => {
  it('are metered, counted in the free tier’s 3 a day, and never saved by themselves', async () => {
    const me = await t.signUp();
    const before = await walletOf(db(), me.email);
    const draft = await call(
      'POST',
      '/api/template/ai?prompt=Thank%20a%20client%20for%20the%20meeting&kind=mail',
      me.token,
    );
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.data.title.length).toBeGreaterThan(0);
    expect(draft.body.data.body.length).toBeGreaterThan(0);
    const after = await walletOf(db(), me.email);
    expect(after.dailyCredit + after.basicCredit).toBe(before.dailyCredit + before.basicCredit - 1);
    expect(await titles(me.token)).toEqual([]);
    expect((await call('POST', '/api/shortcut-template/ai?prompt=thanks', me.token)).status).toBe(200);
    expect((await call('POST', '/api/template/ai?prompt=one%20more', me.token)).status).toBe(200);
    const fourth = await call('POST', '/api/template/ai?prompt=too%20many', me.token);
    expect(fourth.status).toBe(402);
    const usage = (await call('GET', '/api/user/usage', me.token)).body.data;
    expect(usage.gates.find((g: { capability: string }) => g.capability === 'templateAi')).toMatchObject({
      used: 3,
      left: 0,
    });
    expect((await call('POST', '/api/template/ai?prompt=', me.token)).status).toBe(400);
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});
