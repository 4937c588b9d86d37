import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startGoogleFixture } from '../../test/google-fixture.js';

const CLIENT_ID = 'parley-test.apps.googleusercontent.com';
let t: TestApp;
let google: Awaited<ReturnType<typeof startGoogleFixture>>;

beforeAll(async () => {
  google = await startGoogleFixture(CLIENT_ID);
  t = await createTestApp({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl, RATE_LIMIT_PER_IP: '1000' });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const signin = (idToken: string) => t.json('POST', `/api/auth/social-signin?idToken=${idToken}`);

describe('Google sign-in', () => {
  it('publishes the client id for the button', async () => {
    expect((await t.json('GET', '/api/auth/config')).body.data).toEqual({
      googleClientId: CLIENT_ID,
      appName: 'Parley',
      helpUrl: null, // no HELP_URL set
    });
  });

  it('creates a verified account keyed by the Google subject, then signs it in again', async () => {
    const token = await google.sign({ sub: 'g-1', email: 'Gina@Gmail.com', name: 'Gina' });
    const first = await signin(token);
    expect(first.status).toBe(200);
    expect(first.body.data.user).toMatchObject({
      email: 'gina@gmail.com',
      name: 'Gina',
      verified: true,
      googleLinked: true,
      hasPassword: false,
      loginCount: 1,
    });
    // The same subject with a changed address is still the same person.
    const second = await signin(await google.sign({ sub: 'g-1', email: 'gina.new@gmail.com' }));
    expect(second.body.data.user.id).toBe(first.body.data.user.id);
    expect(second.body.data.user.loginCount).toBe(2);
    const pw = await t.json('POST', '/api/auth/login', { body: { email: 'gina@gmail.com', password: 'anything1' } });
    expect(pw.body.code).toBe('ACCOUNT_USES_GOOGLE');
  });

  it('never takes over an existing password account with the same address', async () => {
    const u = await t.signUp({ email: 'owner@example.com' });
    const res = await signin(await google.sign({ sub: 'g-attacker', email: 'owner@example.com' }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_USES_PASSWORD');
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).body.data.googleLinked).toBe(false);
  });

  it('takes over an address someone signed up with but never verified: the password they chose is gone', async () => {
    const email = `squat-${Date.now()}@example.com`;
    expect(
      (await t.json('POST', '/api/auth/register', { body: { email, password: 'squatter password', name: 'Squatter' } }))
        .status,
    ).toBe(200);
    const squatLink = t.linkSecret(email, 'token');
    const res = await signin(await google.sign({ sub: `g-owner-${Date.now()}`, email, name: 'Owner' }));
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email, googleLinked: true, hasPassword: false });
    const squatter = await t.json('POST', '/api/auth/login', { body: { email, password: 'squatter password' } });
    expect([squatter.status, squatter.body.code]).toEqual([403, 'ACCOUNT_USES_GOOGLE']);
    // The sign-up's link no longer does anything either.
    expect((await t.json('POST', `/api/auth/verify?token=${squatLink}`)).status).toBe(400);
  });

  it.each([
    ['forged (unknown key)', () => google.signForeign({ sub: 'g-2', email: 'f@example.com' })],
    ['expired', () => google.sign({ sub: 'g-3', email: 'e@example.com', expiresIn: -3600 })],
    [
      'wrong audience',
      () => google.sign({ sub: 'g-4', email: 'a@example.com', aud: 'someone-else.apps.googleusercontent.com' }),
    ],
    ['wrong issuer', () => google.sign({ sub: 'g-5', email: 'i@example.com', iss: 'https://evil.example.com' })],
    ['unverified e-mail', () => google.sign({ sub: 'g-6', email: 'u@example.com', email_verified: false })],
  ])('rejects a %s token with 401', async (_, make) => {
    const res = await signin(await make());
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('GOOGLE_TOKEN_INVALID');
  });

  it('cleans the name Google sends as any name is cleaned, and refuses an address the sign-up form would', async () => {
    const nul = await signin(await google.sign({ sub: 'g-nul', email: 'gnul@example.com', name: 'G\u0000N' }));
    expect(nul.status).toBe(200);
    expect(nul.body.data.user.name).toBe('GN');
    const bidi = await signin(
      await google.sign({ sub: 'g-bidi', email: 'gbidi@example.com', name: 'inv\u202Efdp.exe' }),
    );
    expect(bidi.body.data.user.name).toBe('invfdp.exe');
    const long = await signin(await google.sign({ sub: 'g-long', email: 'glong@example.com', name: '😀'.repeat(200) }));
    expect(long.status).toBe(200);
    expect(Array.from(long.body.data.user.name as string)).toHaveLength(80);
    expect(long.body.data.user.name).toBe('😀'.repeat(80));
    const odd = await signin(await google.sign({ sub: 'g-odd', email: 'not an address', name: 'Odd' }));
    expect(odd.status).toBe(401);
    expect(odd.body.code).toBe('GOOGLE_TOKEN_INVALID');
  });

  it('rejects a token whose signature was altered', async () => {
    const token = await google.sign({ sub: 'g-7', email: 's@example.com' });
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.sub = 'g-1';
    const altered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await signin(altered)).body.code).toBe('GOOGLE_TOKEN_INVALID');
    expect((await signin('not-a-jwt')).status).toBe(400);
  });

  it('is refused when the server has no Google client id', async () => {
    const local = await createTestApp({ GOOGLE_JWKS_URL: google.jwksUrl });
    try {
      expect((await local.json('GET', '/api/auth/config')).body.data.googleClientId).toBeNull();
      const res = await local.json(
        'POST',
        `/api/auth/social-signin?idToken=${await google.sign({ sub: 'g-8', email: 'n@example.com' })}`,
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('GOOGLE_DISABLED');
    } finally {
      await local.close();
    }
  });
});
