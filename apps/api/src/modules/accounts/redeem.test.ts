import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_PER_EMAIL: '4' });
});
afterAll(() => t.close());

const codes = (n: number) => t.app.services.users.createLicenceCodes(n);
const redeem = (token: string | undefined, code: unknown, lang: 'en' | 'es' | 'fr' = 'en') =>
  t.json('POST', '/api/user/upgradeToAppsumo', { ...(token ? { token } : {}), body: { code }, lang });

describe('redeeming a licence code from the profile', () => {
  it('says what changed: the plan and the credits before and after', async () => {
    const u = await t.signUp();
    const [code] = await codes(1);
    const res = await redeem(u.token, `  ${code!.toLowerCase()} `);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ appDeal: true, lifetimeUser: true, credits: { basicCredit: 1000 } });
    expect(res.body.data.change).toEqual({
      planBefore: 'free',
      planAfter: 'appDeal',
      creditsBefore: { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 },
      creditsAfter: { dailyCredit: 20, basicCredit: 1000, advanceCredit: 200, extraAdvanceCredit: 50 },
    });
    const profile = await t.json('GET', '/api/user/profile', { token: u.token });
    expect(profile.body.data).toMatchObject({ appDeal: true, credits: { advanceCredit: 200 } });
  });

  it('refuses a code already used, by anyone, in the reader’s language', async () => {
    const [a, b] = [await t.signUp(), await t.signUp()];
    const [code] = await codes(1);
    expect((await redeem(a.token, code)).status).toBe(200);
    const reused = await redeem(b.token, code, 'es');
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({
      code: 'INVALID_LICENCE_CODE',
      message: 'Este código de licencia no es válido o ya se ha canjeado.',
    });
    const again = await redeem(a.token, (await codes(1))[0], 'fr');
    expect(again.body.code).toBe('ALREADY_UPGRADED');
    const b2 = await t.json('GET', '/api/user/profile', { token: b.token });
    expect(b2.body.data.appDeal).toBe(false);
  });

  it('refuses malformed codes with a localized 400 and anonymous callers with a 401', async () => {
    const u = await t.signUp();
    for (const bad of ['short', 'PARLEY_7K3M_Q9XD', 'x'.repeat(65), 42]) {
      const res = await redeem(u.token, bad, 'fr');
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).not.toMatch(/^[A-Z_]+$/);
    }
    expect((await redeem(undefined, 'PARLEY-AAAA-BBBB-CCCC')).status).toBe(401);
  });

  it('stops guessing: attempts per account are limited', async () => {
    const u = await t.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await redeem(u.token, `PARLEY-GUES-S000-000${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const [code] = await codes(1);
    const blocked = await redeem(u.token, code, 'es');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    // The valid code was not spent by the refused attempt.
    const other = await t.signUp();
    expect((await redeem(other.token, code)).status).toBe(200);
  });
});
