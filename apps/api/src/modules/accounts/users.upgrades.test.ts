import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceCodes, walletLedger } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ledgerMismatches, walletOf } from '../../test/wallets.js';

// An upgrade is had once: requests that race for it (two licence codes, two early-bird upgrades, an upgrade and an
// early-bird sign-in) change the account and its credits once, and use up one code at most.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_PER_EMAIL: '20' });
});
afterAll(() => t.close());

const db = () => t.database.db;
const grantsOf = async (email: string, feature: string) => {
  const wallet = await walletOf(db(), email);
  return db()
    .select({ balance: walletLedger.balance })
    .from(walletLedger)
    .where(
      and(eq(walletLedger.walletId, wallet.id), eq(walletLedger.kind, 'grant'), eq(walletLedger.feature, feature)),
    );
};

describe('upgrades that race', () => {
  it('two licence codes redeemed at once on one account: one is redeemed, the other left unused', async () => {
    for (let round = 0; round < 3; round++) {
      const u = await t.signUp();
      const codes = await t.app.services.users.createLicenceCodes(2);
      const results = await Promise.all(
        codes.map((code) =>
          t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code }, lang: 'fr' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      const refused = results.find((r) => r.status === 400)!;
      expect(refused.body).toMatchObject({
        code: 'ALREADY_UPGRADED',
        message: 'Votre compte bénéficie déjà de cette mise à niveau.',
      });
      const redeemed = await db()
        .select({ code: licenceCodes.code, by: licenceCodes.redeemedBy })
        .from(licenceCodes)
        .where(and(inArray(licenceCodes.code, codes), isNotNull(licenceCodes.redeemedAt)));
      expect(redeemed).toEqual([{ code: expect.any(String), by: u.user.id }]);
      // The unused code still works, for someone else.
      const unused = codes.find((c) => c !== redeemed[0]!.code)!;
      const other = await t.signUp();
      const res = await t.json('POST', '/api/user/upgradeToAppsumo', { token: other.token, body: { code: unused } });
      expect(res.status).toBe(200);
    }
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('two early-bird upgrades at once, or one with an early-bird sign-in: the account is upgraded once', async () => {
    const u = await t.signUp();
    const results = await Promise.all([
      t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token }),
      t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe('ALREADY_UPGRADED');
    expect((await grantsOf(u.email, 'earlyBird')).length).toBeGreaterThan(0);

    const v = await t.signUp();
    const [upgrade, signIn] = await Promise.all([
      t.json('POST', '/api/user/upgradeToEarlybird', { token: v.token }),
      t.json('POST', '/api/earlyBird/signInEarlyBird', { body: { email: v.email, password: v.password } }),
    ]);
    expect(signIn.status).toBe(200);
    expect(signIn.body.data.user).toMatchObject({ earlyBird: true });
    // Whichever came second found the account upgraded: the upgrade says so, the sign-in reports no change.
    expect([upgrade.status === 200, Boolean(signIn.body.data.change)].filter(Boolean)).toHaveLength(1);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('an early-bird upgrade after the app deal keeps the app deal and its monthly top-ups', async () => {
    const u = await t.signUp();
    const [code] = await t.app.services.users.createLicenceCodes(1);
    expect((await t.json('POST', '/api/user/upgradeToAppsumo', { token: u.token, body: { code } })).status).toBe(200);
    const before = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(before).toMatchObject({ plan: 'appDeal', gates: [] });
    const res = await t.json('POST', '/api/user/upgradeToEarlybird', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.data.change).toMatchObject({ planBefore: 'appDeal', planAfter: 'appDeal' });
    const after = (await t.json('GET', '/api/user/usage', { token: u.token })).body.data;
    expect(after).toMatchObject({ plan: 'appDeal', gates: [], monthlyRenewsAt: before.monthlyRenewsAt });
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});
