import { DEFAULT_LINKEDIN_SETTINGS, KEYWORDS_MAX, PROFILES_MAX } from '@parley/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automations, linkedinKeywords, linkedinProfiles } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { walletOf } from '../../test/wallets.js';
import { normalizeProfileUrl } from './linkedin.engage.service.js';

// Settings and AI customization, keywords and followed profiles: each person's own, within caps, each once;
// auto-engage needs a plan without the free tier's daily limit.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '100000' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, body?: unknown, lang?: string) =>
  t.json(method, url, {
    ...(token ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(lang ? { lang } : {}),
  });
const db = () => t.database.db;
const setPlan = async (email: string, plan: string) =>
  db().execute(sql`UPDATE wallets SET plan = ${plan} WHERE id = ${(await walletOf(db(), email)).id}`);
const runsOf = (userId: string) =>
  db()
    .select()
    .from(automations)
    .where(and(eq(automations.userId, userId), eq(automations.kind, 'aiComment')));

describe('settings', () => {
  it('start at the defaults, change in parts, and refuse what they do not know', async () => {
    const me = await t.signUp();
    expect((await call('GET', '/api/linkedin/settings')).status).toBe(401);
    const first = await call('GET', '/api/linkedin/settings', me.token);
    expect(first.body.data).toEqual(DEFAULT_LINKEDIN_SETTINGS);
    const changed = await call('PUT', '/api/linkedin/settings', me.token, {
      commentLength: 'tiny',
      avoidWords: ['crypto'],
    });
    expect(changed.status).toBe(200);
    const second = await call('PUT', '/api/linkedin/settings', me.token, { creativity: 'wild' });
    expect(second.body.data).toEqual({
      ...DEFAULT_LINKEDIN_SETTINGS,
      commentLength: 'tiny',
      avoidWords: ['crypto'],
      creativity: 'wild',
    });
    for (const body of [
      { commentLength: 'huge' },
      { userId: 'x' },
      { commentsPerKeywordPerDay: 0 },
      { languages: ['KLINGON'] },
      { customPrompts: [{ label: '', prompt: 'x' }] },
    ]) {
      expect((await call('PUT', '/api/linkedin/settings', me.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    const other = await t.signUp();
    expect((await call('GET', '/api/linkedin/settings', other.token)).body.data).toEqual(DEFAULT_LINKEDIN_SETTINGS);
  });

  it('auto-engage needs a plan without the daily limit: free and early bird get the upgrade prompt, Pro and Plus may', async () => {
    const free = await t.signUp();
    await call('POST', '/api/linkedin/keywords', free.token, { keyword: 'tides' });
    const refused = await call(
      'PUT',
      '/api/linkedin/settings',
      free.token,
      { autoEngage: true, creativity: 'wild' },
      'es',
    );
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ code: 'UPGRADE_REQUIRED', message: expect.any(String) });
    expect((await call('GET', '/api/linkedin/settings', free.token)).body.data.creativity).toBe('balanced');
    expect(await runsOf(free.user.id)).toEqual([]);
    await setPlan(free.email, 'earlyBird');
    expect((await call('PUT', '/api/linkedin/settings', free.token, { autoEngage: true })).status).toBe(402);

    for (const plan of ['pro', 'plus']) {
      const me = await t.signUp();
      await setPlan(me.email, plan);
      const kw = (await call('POST', '/api/linkedin/keywords', me.token, { keyword: 'tides' })).body.data;
      await call('POST', '/api/linkedin/keywords', me.token, { keyword: 'paused', active: false });
      expect(await runsOf(me.user.id)).toEqual([]);
      const on = await call('PUT', '/api/linkedin/settings', me.token, { autoEngage: true });
      expect(on.status, plan).toBe(200);
      expect(on.body.data.autoEngage).toBe(true);
      // One daily run per active keyword, due now; switching on again keeps it.
      await call('PUT', '/api/linkedin/settings', me.token, { autoEngage: true });
      const runs = await runsOf(me.user.id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ keywordId: kw.id, dailyRun: true, status: 'Pending' });
      // A keyword added while it is on gets its run; paused, its run stops; off, every run stops.
      const added = (await call('POST', '/api/linkedin/keywords', me.token, { keyword: 'robots' })).body.data;
      expect((await runsOf(me.user.id)).map((r) => r.keywordId).sort()).toEqual([kw.id, added.id].sort());
      await call('PUT', `/api/linkedin/keywords/${added.id}`, me.token, { active: false });
      expect((await runsOf(me.user.id)).find((r) => r.keywordId === added.id)).toMatchObject({ dailyRun: false });
      await call('PUT', '/api/linkedin/settings', me.token, { autoEngage: false });
      expect((await runsOf(me.user.id)).every((r) => !r.dailyRun && r.runAt === null)).toBe(true);
      // Deleting a keyword deletes its run.
      await call('DELETE', `/api/linkedin/keywords/${kw.id}`, me.token);
      expect((await runsOf(me.user.id)).map((r) => r.keywordId)).toEqual([added.id]);
    }

    // A plan that ends turns auto-engage off as it is read.
    const lapsed = await t.signUp();
    await setPlan(lapsed.email, 'pro');
    await call('PUT', '/api/linkedin/settings', lapsed.token, { autoEngage: true });
    await setPlan(lapsed.email, 'free');
    expect((await call('GET', '/api/linkedin/settings', lapsed.token)).body.data.autoEngage).toBe(false);
  });
});

describe('keywords', () => {
  it('are added, changed and deleted by their owner, once each; another person gets 404', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const added = await call('POST', '/api/linkedin/keywords', me.token, {
      keyword: '  Tides ',
      avoid: ['crypto', 'Crypto', 'nft'],
      include: ['energy'],
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({
      keyword: 'Tides',
      avoid: ['crypto', 'nft'],
      include: ['energy'],
      active: true,
      lastRunAt: null,
      draftsToday: 0,
      due: true,
    });
    const id = added.body.data.id as string;
    const twice = await call('POST', '/api/linkedin/keywords', me.token, { keyword: 'tides' }, 'fr');
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      status: 400,
      code: 'LINKEDIN_KEYWORD_EXISTS',
      message: 'Vous suivez déjà ce mot-clé.',
    });
    // Someone else may watch the same word.
    expect((await call('POST', '/api/linkedin/keywords', other.token, { keyword: 'tides' })).status).toBe(200);

    const second = (await call('POST', '/api/linkedin/keywords', me.token, { keyword: 'robots' })).body.data;
    expect((await call('PUT', `/api/linkedin/keywords/${second.id}`, me.token, { keyword: 'TIDES' })).status).toBe(400);
    const changed = await call('PUT', `/api/linkedin/keywords/${id}`, me.token, { include: [], active: false });
    expect(changed.body.data).toMatchObject({ keyword: 'Tides', avoid: ['crypto', 'nft'], include: [], due: false });

    for (const [method, body] of [
      ['PUT', { keyword: 'stolen' }],
      ['DELETE', undefined],
    ] as [Method, unknown][]) {
      const res = await call(method, `/api/linkedin/keywords/${id}`, other.token, body);
      expect(res.status, method).toBe(404);
    }
    expect(
      (await call('GET', '/api/linkedin/keywords', other.token)).body.data.keywords.map(
        (k: { keyword: string }) => k.keyword,
      ),
    ).toEqual(['tides']);
    expect((await call('DELETE', `/api/linkedin/keywords/${id}`, me.token)).body.data).toEqual({ deleted: 1 });
    expect((await call('DELETE', `/api/linkedin/keywords/${id}`, me.token)).status).toBe(404);
    expect((await call('PUT', '/api/linkedin/keywords/not-a-uuid', me.token, {})).status).toBe(400);
    for (const body of [
      { keyword: '' },
      { keyword: 'x'.repeat(101) },
      { keyword: 'x', avoid: Array(31).fill('w') },
      { keyword: 'x', userId: 'y' },
    ]) {
      expect((await call('POST', '/api/linkedin/keywords', me.token, body)).status).toBe(400);
    }
  });

  it(`stop at ${KEYWORDS_MAX}, also when added at once`, async () => {
    const me = await t.signUp();
    await db()
      .insert(linkedinKeywords)
      .values(Array.from({ length: KEYWORDS_MAX - 3 }, (_, i) => ({ userId: me.user.id, keyword: `word ${i}` })));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call('POST', '/api/linkedin/keywords', me.token, { keyword: `new ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.every((r) => r.body.code === 'TOO_MANY_ITEMS')).toBe(true);
    expect((await call('GET', '/api/linkedin/keywords', me.token)).body.data.keywords).toHaveLength(KEYWORDS_MAX);
  });
});

describe('followed profiles', () => {
  it('are kept in one form of their address, once each; another person gets 404', async () => {
    expect(normalizeProfileUrl('https://linkedin.com/in/Jane-Doe')).toBe('https://www.linkedin.com/in/jane-doe/');
    expect(normalizeProfileUrl('https://fr.linkedin.com/in/jane-doe/recent-activity/all/?x=1')).toBe(
      'https://www.linkedin.com/in/jane-doe/',
    );
    expect(normalizeProfileUrl('https://www.linkedin.com/company/Parley/')).toBe(
      'https://www.linkedin.com/company/parley/',
    );
    expect(normalizeProfileUrl('https://evil.example/in/jane')).toBeNull();
    expect(normalizeProfileUrl('https://www.linkedin.com/feed/')).toBeNull();

    const me = await t.signUp();
    const other = await t.signUp();
    const added = await call('POST', '/api/linkedin/profiles', me.token, {
      url: 'https://linkedin.com/in/Jane-Doe',
      name: 'Jane Doe',
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({
      url: 'https://www.linkedin.com/in/jane-doe/',
      name: 'Jane Doe',
      due: true,
    });
    const again = await call(
      'POST',
      '/api/linkedin/profiles',
      me.token,
      { url: 'https://www.linkedin.com/in/jane-doe/' },
      'es',
    );
    expect(again.body).toEqual({ status: 400, code: 'LINKEDIN_PROFILE_EXISTS', message: 'Ya sigues este perfil.' });
    for (const url of ['https://evil.example/in/jane', 'https://www.linkedin.com/feed/', 'javascript:alert(1)']) {
      expect((await call('POST', '/api/linkedin/profiles', me.token, { url })).status, url).toBe(400);
    }
    const id = added.body.data.id as string;
    expect((await call('PUT', `/api/linkedin/profiles/${id}`, other.token, { active: false })).status).toBe(404);
    expect((await call('DELETE', `/api/linkedin/profiles/${id}`, other.token)).status).toBe(404);
    const paused = await call('PUT', `/api/linkedin/profiles/${id}`, me.token, { active: false });
    expect(paused.body.data).toMatchObject({ active: false, due: false, name: 'Jane Doe' });
    expect((await call('GET', '/api/linkedin/profiles', other.token)).body.data.profiles).toEqual([]);
    expect((await call('DELETE', `/api/linkedin/profiles/${id}`, me.token)).body.data).toEqual({ deleted: 1 });
  });

  it(`stop at ${PROFILES_MAX}`, async () => {
    const me = await t.signUp();
    await db()
      .insert(linkedinProfiles)
      .values(
        Array.from({ length: PROFILES_MAX }, (_, i) => ({
          userId: me.user.id,
          url: `https://www.linkedin.com/in/person-${i}/`,
        })),
      );
    const res = await call('POST', '/api/linkedin/profiles', me.token, { url: 'https://www.linkedin.com/in/one-more' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TOO_MANY_ITEMS');
  });
});
