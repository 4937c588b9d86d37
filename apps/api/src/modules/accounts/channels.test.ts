import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceCodes, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { walletOf } from '../../test/wallets.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_PER_EMAIL: '1000' });
});
afterAll(() => t.close());

const codes = (n: number) => t.app.services.users.createLicenceCodes(n);

describe('early-bird channel', () => {
  it('signs up a new account with the early-bird allowance and a verification mail', async () => {
    const res = await t.json('POST', '/api/earlyBird/signInEarlyBird', {
      body: { email: 'early@example.com', password: 'early bird pw', name: 'Early' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ verificationSent: true, email: 'early@example.com' });
    await t.json('POST', `/api/auth/verify?token=${t.linkSecret('early@example.com', 'token')}`);
    const again = await t.json('POST', '/api/earlyBird/signInEarlyBird', {
      body: { email: 'early@example.com', password: 'early bird pw' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.token).toBeTruthy();
    expect(again.body.data.user).toMatchObject({ earlyBird: true, credits: { basicCredit: 300 } });
  });

  it('marks an existing account after checking its password', async () => {
    const u = await t.signUp();
    expect(
      (await t.json('POST', '/api/earlyBird/signInEarlyBird', { body: { email: u.email, password: 'wrong password' } }))
        .status,
    ).toBe(401);
    const ok = await t.json('POST', '/api/earlyBird/signInEarlyBird', {
      body: { email: u.email, password: u.password },
    });
    expect(ok.body.data.user).toMatchObject({ earlyBird: true, loginCount: 2 });
    expect(ok.body.data.change).toEqual({
      planBefore: 'free',
      planAfter: 'earlyBird',
      creditsBefore: { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 },
      creditsAfter: { dailyCredit: 10, basicCredit: 300, advanceCredit: 50, extraAdvanceCredit: 10 },
    });
    // Already an early bird: signing in here again changes nothing and says nothing changed.
    const again = await t.json('POST', '/api/earlyBird/signInEarlyBird', {
      body: { email: u.email, password: u.password },
    });
    expect(again.body.data.change).toBeUndefined();
  });

  it('upgrades a signed-in user once', async () => {
    const u = await t.signUp();
    const up = await t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token });
    expect(up.status).toBe(200);
    expect(up.body.data.user).toMatchObject({ earlyBird: true, credits: { dailyCredit: 10, basicCredit: 300 } });
    expect(up.body.data.change).toMatchObject({ planBefore: 'free', planAfter: 'earlyBird' });
    expect((await t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token })).body.code).toBe(
      'ALREADY_UPGRADED',
    );
  });
});

describe('app-deal channel', () => {
  it('creates a lifetime account with a valid code, and the code works once', async () => {
    const [code] = await codes(1);
    const body = { email: 'deal@example.com', password: 'app deal password', name: 'Deal', code: code!.toLowerCase() };
    const res = await t.json('POST', '/api/appSumo/signInAppSumo', { body });
    expect(res.status).toBe(200);
    expect(res.body.data.verificationSent).toBe(true);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'deal@example.com'));
    expect(row).toMatchObject({ appDeal: true, lifetimeUser: true });
    expect(await walletOf(t.database.db, 'deal@example.com')).toMatchObject({ basicCredit: 1000, dailyCredit: 20 });

    const reuse = await t.json('POST', '/api/appSumo/signInAppSumo', {
      body: { ...body, email: 'deal2@example.com' },
      lang: 'fr',
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe("Ce code de licence n'est pas valide ou a déjà été utilisé.");
    expect(await t.database.db.select().from(users).where(eq(users.email, 'deal2@example.com'))).toHaveLength(0);
  });

  it('rejects an unknown code without creating the account', async () => {
    const res = await t.json('POST', '/api/appSumo/signInAppSumo', {
      body: { email: 'nocode@example.com', password: 'app deal password', name: 'N', code: 'PARLEY-AAAA-BBBB-CCCC' },
    });
    expect(res.body.code).toBe('INVALID_LICENCE_CODE');
    expect(await t.database.db.select().from(users).where(eq(users.email, 'nocode@example.com'))).toHaveLength(0);
  });

  it('tells no one without a valid code whether an address has an account', async () => {
    const u = await t.signUp();
    const ask = (email: string) =>
      t.json('POST', '/api/appSumo/signInAppSumo', {
        body: { email, password: 'app deal password', name: 'Probe', code: 'PARLEY-AAAA-BBBB-CCCC' },
      });
    const known = await ask(u.email);
    const unknown = await ask(`nobody-${Date.now()}@example.com`);
    expect([known.status, known.body.code]).toEqual([400, 'INVALID_LICENCE_CODE']);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INVALID_LICENCE_CODE']);
  });

  it('one code raced by ten sign-ups is redeemed exactly once', async () => {
    const [code] = await codes(1);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.json('POST', '/api/appSumo/signInAppSumo', {
          body: { email: `race${i}@example.com`, password: 'app deal password', name: 'R', code },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 'INVALID_LICENCE_CODE')).toHaveLength(9);
    const [row] = await t.database.db.select().from(licenceCodes).where(eq(licenceCodes.code, code!));
    expect(row!.redeemedBy).toBeTruthy();
  });

  it('upgrades a signed-in account with a code; an address already taken must upgrade instead of signing up', async () => {
    const u = await t.signUp();
    const [code] = await codes(1);
    const taken = await t.json('POST', '/api/appSumo/signInAppSumo', {
      body: { email: u.email, password: 'app deal password', name: 'X', code },
    });
    expect(taken.body.code).toBe('EMAIL_TAKEN');
    expect(
      (await t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code: 'PARLEY-ZZZZ-ZZZZ-ZZZZ' } }))
        .body.code,
    ).toBe('INVALID_LICENCE_CODE');
    const up = await t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code } });
    expect(up.body.data.user).toMatchObject({ appDeal: true, lifetimeUser: true });
  });
});

describe('admin command', () => {
  it('creates a verified site admin who can sign in', async () => {
    const admin = await t.app.services.users.createAdmin({
      email: 'root@example.com',
      password: 'admin password',
      name: 'Root',
    });
    expect(admin).toMatchObject({ role: 'admin', verified: true });
    const login = await t.json('POST', '/api/auth/login', {
      body: { email: 'root@example.com', password: 'admin password' },
    });
    expect(login.body.data.user.role).toBe('admin');
  });
});
