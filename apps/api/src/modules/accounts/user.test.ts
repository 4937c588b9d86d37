import { DEFAULT_SETTINGS } from '@parley/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_PER_EMAIL: '1000' });
});
afterAll(() => t.close());

describe('settings', () => {
  it('start with exactly the defaults of spec §3', async () => {
    const u = await t.signUp();
    const res = await t.json('GET', '/api/user/setting', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(DEFAULT_SETTINGS);
    expect(res.body.data).toMatchObject({
      theme: 'light',
      language: 'ENGLISH',
      replyOption: 'AFFIRMATIVE_ACKNOWLEDGMENT',
      tone: 'CASUAL',
      length: 'MEDIUM',
      model: 'GPT_4O_MINI',
      quickAccess: '1',
      summarizeGmail: '1',
      summarizeYoutube: '1',
      summarizeOutlook: '1',
      chatWithImage: '0',
      instantReplyGmail: '1',
      instantReplyOutlook: '1',
      instantReplyLinkedin: '1',
      instantReplyInstagram: '1',
      instantReplyFacebook: '1',
      instantReplyYoutube: '1',
      instantReplyTwitter: '1',
      miniMenu: '1',
      searchWithAI: '1',
    });
  });

  it('update only the keys sent, and concurrent updates of different keys both survive', async () => {
    const u = await t.signUp();
    const a = await t.json('POST', '/api/user/setting', {
      token: u.token,
      body: { tone: 'FORMAL', chatWithImage: '1' },
    });
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ tone: 'FORMAL', chatWithImage: '1', model: 'GPT_4O_MINI' });
    await Promise.all([
      t.json('POST', '/api/user/setting', { token: u.token, body: { language: 'FRENCH' } }),
      t.json('POST', '/api/user/setting', { token: u.token, body: { disabledSites: ['Example.COM'] } }),
    ]);
    const after = await t.json('GET', '/api/user/setting', { token: u.token });
    expect(after.body.data).toMatchObject({
      tone: 'FORMAL',
      chatWithImage: '1',
      language: 'FRENCH',
      disabledSites: ['example.com'],
    });
  });

  it('reject unknown keys and invalid values with a 400 and keep what was stored', async () => {
    const u = await t.signUp();
    await t.json('POST', '/api/user/setting', { token: u.token, body: { tone: 'FRIENDLY' } });
    const unknown = await t.json('POST', '/api/user/setting', {
      token: u.token,
      body: { tone: 'FORMAL', isAdmin: true },
      lang: 'es',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0].message).toBe('Campo(s) desconocido(s): isAdmin.');
    const bad = await t.json('POST', '/api/user/setting', { token: u.token, body: { quickAccess: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([
      { path: 'quickAccess', message: 'This value is not one of the allowed options.' },
    ]);
    expect((await t.json('GET', '/api/user/setting', { token: u.token })).body.data.tone).toBe('FRIENDLY');
  });
});

describe('profile', () => {
  it('updates name, full name, time zone and language', async () => {
    const u = await t.signUp();
    const res = await t.json('POST', '/api/user/profile', {
      token: u.token,
      body: { name: 'Zoé', fullName: 'Zoé Martin', timezone: 'Europe/Paris', language: 'fr' },
      lang: 'fr',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profil enregistré.');
    expect(res.body.data).toMatchObject({
      name: 'Zoé',
      fullName: 'Zoé Martin',
      timezone: 'Europe/Paris',
      language: 'fr',
    });
  });

  it("refuses an unknown time zone, an unsupported language and fields that are not the user's to set", async () => {
    const u = await t.signUp();
    expect(
      (await t.json('POST', '/api/user/profile', { token: u.token, body: { timezone: 'Mars/Olympus' } })).status,
    ).toBe(400);
    expect((await t.json('POST', '/api/user/profile', { token: u.token, body: { language: 'de' } })).status).toBe(400);
    for (const body of [
      { role: 'admin' },
      { credits: { basicCredit: 9999 } },
      { verified: true },
      { email: 'x@y.z' },
    ]) {
      const res = await t.json('POST', '/api/user/profile', { token: u.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const profile = (await t.json('GET', '/api/user/profile', { token: u.token })).body.data;
    expect(profile).toMatchObject({ role: 'user', email: u.email, credits: { basicCredit: 30 } });
  });
});

describe('isolation between users', () => {
  it('each token reads and changes only its own profile and settings', async () => {
    const alice = await t.signUp({ name: 'Alice' });
    const bob = await t.signUp({ name: 'Bob' });
    await t.json('POST', '/api/user/setting', { token: alice.token, body: { tone: 'HUMOROUS' } });
    await t.json('POST', '/api/user/profile', { token: alice.token, body: { fullName: 'Alice Liddell' } });
    // Ids smuggled in query strings or bodies are not honoured.
    await t.json('POST', `/api/user/setting?userId=${bob.user.id}`, { token: alice.token, body: { tone: 'DIRECT' } });
    const bobProfile = await t.json('GET', `/api/user/profile?id=${alice.user.id}`, { token: bob.token });
    expect(bobProfile.body.data).toMatchObject({ id: bob.user.id, name: 'Bob', fullName: '' });
    expect((await t.json('GET', '/api/user/setting', { token: bob.token })).body.data.tone).toBe('CASUAL');
    expect((await t.json('GET', '/api/user/setting', { token: alice.token })).body.data.tone).toBe('DIRECT');
    expect(
      (await t.json('POST', '/api/user/profile', { token: bob.token, body: { id: alice.user.id, name: 'X' } })).status,
    ).toBe(400);
  });
});
