import { and, eq, gt, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, sessions, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { recordUse, setCredits } from '../../test/wallets.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_PER_EMAIL: '1000' });
});
afterAll(() => t.close());

describe('register and verify', () => {
  it('creates an unverified account, mails a localized link, and verifies it once', async () => {
    const email = 'maria@example.com';
    const reg = await t.json('POST', '/api/auth/register', {
      body: { email: ' Maria@Example.com ', password: 'una contraseña larga', name: 'María' },
      lang: 'es',
    });
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ status: 200, data: { email } });
    expect(reg.body.message).toMatch(/Cuenta creada/);

    const mail = t.mail.last(email)!;
    expect(mail.subject).toBe('Verifica tu correo electrónico en Parley');
    expect(mail.text).toContain('Hola, María:');
    expect(mail.link).toMatch(/^http:\/\/parley\.test\/verify-email\?token=[A-Za-z0-9_-]{40,}$/);

    const early = await t.json('POST', '/api/auth/login', { body: { email, password: 'una contraseña larga' } });
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('EMAIL_NOT_VERIFIED');

    const token = t.linkSecret(email, 'token');
    const ok = await t.json('POST', `/api/auth/verify?token=${token}`);
    expect(ok.status).toBe(200);
    const again = await t.json('POST', `/api/auth/verify?token=${token}`, { lang: 'fr' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'INVALID_TOKEN',
      message: "Ce lien n'est pas valide ou a déjà été utilisé.",
    });

    const login = await t.json('POST', '/api/auth/login', { body: { email, password: 'una contraseña larga' } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email, name: 'María', language: 'es', verified: true, loginCount: 1 });
  });

  it('answers the same for an address that already has an account, and tells its owner by mail', async () => {
    const { email } = await t.signUp();
    const before = t.mail.sent.length;
    const reg = await t.json('POST', '/api/auth/register', {
      body: { email, password: 'another password', name: 'Mallory' },
    });
    expect(reg.status).toBe(200);
    expect(reg.body.data).toEqual({ email });
    expect(t.mail.sent.length).toBe(before + 1);
    expect(t.mail.last(email)!.subject).toBe('You already have a Parley account');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.name).not.toBe('Mallory');
  });

  it('mails the owner of an address at most once an hour, however many sign-ups are tried on it', async () => {
    const { email } = await t.signUp();
    const unverified = 'never-verified@example.com';
    await t.json('POST', '/api/auth/register', { body: { email: unverified, password: 'long enough pw', name: 'U' } });
    const before = { taken: t.mail.sent.filter((m) => m.to === email).length };
    const attempts = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        t.json('POST', '/api/auth/register', {
          body: { email: i % 2 ? email : unverified, password: 'another password', name: 'Mallory' },
        }),
      ),
    );
    const fresh = await t.json('POST', '/api/auth/register', {
      body: { email: 'brand-new@example.com', password: 'another password', name: 'New' },
    });
    for (const [i, a] of attempts.entries()) {
      expect(a.status).toBe(fresh.status);
      expect(a.body).toEqual({ ...fresh.body, data: { email: i % 2 ? email : unverified } });
    }
    expect(t.mail.sent.filter((m) => m.to === email).length - before.taken).toBe(1);
    expect(t.mail.sent.filter((m) => m.to === unverified).length).toBe(1 + 1); // its own sign-up, then one more
  });

  it('rejects tampered and expired verification links, and a new link replaces the old one', async () => {
    const email = 'late@example.com';
    await t.json('POST', '/api/auth/register', { body: { email, password: 'long enough pw', name: 'Late' } });
    const first = t.linkSecret(email, 'token');
    const tampered = first.slice(0, -2) + (first.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.json('POST', `/api/auth/verify?token=${tampered}`)).body.code).toBe('INVALID_TOKEN');
    expect((await t.json('POST', '/api/auth/verify?token=short')).body.code).toBe('VALIDATION_FAILED');

    await t.json('POST', '/api/auth/resend-verification', { body: { email } });
    const second = t.linkSecret(email, 'token');
    expect(second).not.toBe(first);
    expect((await t.json('POST', `/api/auth/verify?token=${first}`)).body.code).toBe('INVALID_TOKEN');

    await t.database.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await t.json('POST', `/api/auth/verify?token=${second}`, { lang: 'es' });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({
      code: 'TOKEN_EXPIRED',
      message: 'Este enlace ha caducado. Solicita uno nuevo.',
    });
  });

  it('validates input with localized messages per field', async () => {
    const res = await t.json('POST', '/api/auth/register', {
      body: { email: 'not-an-email', password: 'short' },
      lang: 'fr',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    const byPath = Object.fromEntries(
      res.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]),
    );
    expect(byPath).toEqual({
      email: 'Saisissez une adresse e-mail valide.',
      password: 'Doit contenir au moins 8 caractères.',
      name: 'Ce champ est obligatoire.',
    });
  });
});

describe('login and sessions', () => {
  it('counts logins and returns the profile with usage and credits', async () => {
    const u = await t.signUp();
    expect(u.user.loginCount).toBe(1);
    const again = await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
    expect(again.body.data.user.loginCount).toBe(2);
    await setCredits(t.database.db, u.email, { extraAdvanceCredit: 1 });
    await recordUse(t.database.db, u.email, 'basic', 3);
    await recordUse(t.database.db, u.email, 'advance', 2);
    await recordUse(t.database.db, u.email, 'extraAdvance', 1);
    const profile = await t.json('GET', '/api/user/profile', { token: again.body.data.token });
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({
      email: u.email,
      basicUse: 3,
      advanceUse: 2,
      extraAdvanceUse: 1,
      monthlyUse: 6,
      credits: { dailyCredit: 3, basicCredit: 27, advanceCredit: 3, extraAdvanceCredit: 0 },
      lifetimeUser: false,
      multipleLogin: false,
      verified: true,
      hasPassword: true,
    });
    expect(profile.body.data.profileId).toBe(profile.body.data.id);
    expect(new Date(profile.body.data.joinDate).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stores only a hash of the session token and of the password (argon2id)', async () => {
    const u = await t.signUp();
    const [row] = await t.database.db.select().from(users).where(eq(users.email, u.email));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, row!.id));
    expect(rows.some((s) => s.tokenHash === u.token)).toBe(false);
  });

  it('a second sign-in ends the first session with 409 unless multiple login is allowed', async () => {
    const u = await t.signUp();
    const second = await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
    const old = await t.json('GET', '/api/user/profile', { token: u.token, lang: 'fr' });
    expect(old.status).toBe(409);
    expect(old.body).toEqual({
      status: 409,
      code: 'SESSION_REPLACED',
      message: 'Vous avez été déconnecté : votre compte s’est connecté sur un autre appareil ou navigateur.',
    });
    expect((await t.json('GET', '/api/user/profile', { token: second.body.data.token })).status).toBe(200);

    await t.database.db.update(users).set({ multipleLogin: true }).where(eq(users.email, u.email));
    const third = await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
    expect((await t.json('GET', '/api/user/profile', { token: second.body.data.token })).status).toBe(200);
    expect((await t.json('GET', '/api/user/profile', { token: third.body.data.token })).status).toBe(200);
  });

  it('logout revokes the token (401 afterwards), with a localized message', async () => {
    const u = await t.signUp();
    const out = await t.json('POST', '/api/user/logout', { token: u.token, lang: 'es' });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe('Has cerrado la sesión.');
    const after = await t.json('GET', '/api/user/profile', { token: u.token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
  });

  it('rejects missing, malformed and unknown tokens with 401', async () => {
    expect((await t.json('GET', '/api/user/profile')).status).toBe(401);
    expect((await t.json('GET', '/api/user/profile', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await t.json('GET', '/api/user/profile', { token: 'x'.repeat(43) })).status).toBe(401);
    const res = await t.json('GET', '/api/user/setting', { lang: 'es' });
    expect(res.body.message).toBe('Necesitas iniciar sesión para continuar...');
  });

  it('an expired session is a 401', async () => {
    const u = await t.signUp();
    await t.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).status).toBe(401);
  });

  it('wrong passwords are a 401, and after the limit even the right one is refused for a while', async () => {
    const local = await createTestApp({ LOGIN_MAX_FAILURES: '3', RATE_LIMIT_PER_IP: '1000' });
    try {
      const u = await local.signUp();
      for (let i = 0; i < 3; i += 1) {
        const res = await local.json('POST', '/api/auth/login', {
          body: { email: u.email, password: 'wrong password' },
        });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_CREDENTIALS');
      }
      const locked = await local.json('POST', '/api/auth/login', {
        body: { email: u.email, password: u.password },
        lang: 'es',
      });
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('RATE_LIMITED');
      expect(locked.body.message).toMatch(/Demasiados intentos/);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      const unknown = await local.json('POST', '/api/auth/login', {
        body: { email: 'nobody@example.com', password: 'whatever1' },
      });
      expect(unknown.status).toBe(401);
    } finally {
      await local.close();
    }
  });

  it('limits registrations per client address', async () => {
    const local = await createTestApp({ RATE_LIMIT_PER_IP: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push(
          (
            await local.json('POST', '/api/auth/register', {
              body: { email: `r${i}@example.com`, password: 'long enough pw', name: 'R' },
            })
          ).status,
        );
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await local.close();
    }
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the address exists', async () => {
    const u = await t.signUp();
    const known = await t.json('POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const unknown = await t.json('POST', '/api/auth/forgot-password', { body: { email: 'ghost@example.com' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(t.mail.last('ghost@example.com')).toBeUndefined();
    expect(t.mail.last(u.email)!.link).toMatch(/\/reset-password\?key=/);
  });

  it('resets once, ends every session with 409, and the new password works', async () => {
    const u = await t.signUp();
    await t.json('POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const key = t.linkSecret(u.email, 'key');
    const reset = await t.json('POST', '/api/auth/reset-password', { body: { key, password: 'brand new password' } });
    expect(reset.status).toBe(200);
    const ended = await t.json('GET', '/api/user/profile', { token: u.token, lang: 'es' });
    expect(ended.status).toBe(409);
    expect(ended.body.message).toBe('Se ha cerrado tu sesión: se restableció la contraseña de tu cuenta.');
    const reused = await t.json('POST', '/api/auth/reset-password', {
      body: { key, password: 'another new password' },
    });
    expect(reused.body.code).toBe('INVALID_TOKEN');
    expect((await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(
      401,
    );
    expect(
      (await t.json('POST', '/api/auth/login', { body: { email: u.email, password: 'brand new password' } })).status,
    ).toBe(200);
  });

  it('refuses expired and tampered reset keys, and a verification token is not a reset key', async () => {
    const u = await t.signUp();
    await t.json('POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const key = t.linkSecret(u.email, 'key');
    const tampered = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;
    expect(
      (await t.json('POST', '/api/auth/reset-password', { body: { key: tampered, password: 'new password 1' } })).body
        .code,
    ).toBe('INVALID_TOKEN');

    const email = 'kinds@example.com';
    await t.json('POST', '/api/auth/register', { body: { email, password: 'long enough pw', name: 'K' } });
    const verifyToken = t.linkSecret(email, 'token');
    expect(
      (await t.json('POST', '/api/auth/reset-password', { body: { key: verifyToken, password: 'new password 1' } }))
        .body.code,
    ).toBe('INVALID_TOKEN');

    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(emailTokens.kind, 'reset'));
    expect(
      (await t.json('POST', '/api/auth/reset-password', { body: { key, password: 'new password 1' } })).body.code,
    ).toBe('TOKEN_EXPIRED');
  });
});

describe('change password', () => {
  it('needs the old password, keeps this session, and ends the others', async () => {
    const u = await t.signUp();
    await t.database.db.update(users).set({ multipleLogin: true }).where(eq(users.email, u.email));
    const other = (await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).body
      .data.token;

    const wrong = await t.json('POST', '/api/user/change-password', {
      token: u.token,
      headers: { devicetype: 'WEB' },
      body: { oldPassword: 'not my password', newPassword: 'a better password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('WRONG_PASSWORD');

    const same = await t.json('POST', '/api/user/change-password', {
      token: u.token,
      body: { oldPassword: u.password, newPassword: u.password },
    });
    expect(same.body.code).toBe('SAME_PASSWORD');

    const ok = await t.json('POST', '/api/user/change-password', {
      token: u.token,
      headers: { devicetype: 'WEB' },
      body: { oldPassword: u.password, newPassword: 'a better password' },
    });
    expect(ok.status).toBe(200);
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
    const ended = await t.json('GET', '/api/user/profile', { token: other });
    expect(ended.status).toBe(409);
    expect(ended.body.message).toBe('You have been logged out: the password of your account was changed.');
    expect(
      (await t.json('POST', '/api/auth/login', { body: { email: u.email, password: 'a better password' } })).status,
    ).toBe(200);
  });
});

describe('races on passwords and sessions', () => {
  const liveSessions = async (email: string) => {
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    return t.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, u!.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
  };

  it('a burst of guesses sent at once checks no more passwords than the lockout allows', async () => {
    const local = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
    try {
      const u = await local.signUp();
      // 24 guesses at once; the right password is the 20th.
      const guesses = Array.from({ length: 24 }, (_, i) => (i === 19 ? u.password : `wrong guess ${i}`));
      const answers = await Promise.all(
        guesses.map((password) => local.json('POST', '/api/auth/login', { body: { email: u.email, password } })),
      );
      expect(answers.filter((a) => a.status !== 429).length).toBeLessThanOrEqual(3);
      expect(answers[19]!.status).toBe(429);

      const changes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          local.json('POST', '/api/user/change-password', {
            token: u.token,
            body: { oldPassword: i === 15 ? u.password : `wrong old ${i}`, newPassword: 'new password 123' },
          }),
        ),
      );
      expect(changes.filter((a) => a.status !== 429).length).toBeLessThanOrEqual(3);
    } finally {
      await local.close();
    }
  });

  it('sign-ins at once leave one live session when multiple login is off', async () => {
    for (let round = 0; round < 4; round += 1) {
      const u = await t.signUp();
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(await liveSessions(u.email)).toHaveLength(1);
    }
  });

  it('a sign-in with the old password racing a reset keeps no session once the reset is done', async () => {
    // Password checks as slow as in production, so that the reset can commit while a sign-in checks.
    const local = await createTestApp({
      RATE_LIMIT_PER_IP: '10000',
      RATE_LIMIT_PER_EMAIL: '10000',
      LOGIN_MAX_FAILURES: '1000',
      ARGON2_MEMORY_KIB: '19456',
    });
    try {
      const probe = await local.signUp();
      const started = Date.now();
      await local.json('POST', '/api/auth/login', { body: { email: probe.email, password: probe.password } });
      const check = Date.now() - started;
      const survivors: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const u = await local.signUp();
        await local.json('POST', '/api/auth/forgot-password', { body: { email: u.email } });
        const key = local.linkSecret(u.email, 'key');
        const reset = local.json('POST', '/api/auth/reset-password', { body: { key, password: 'owner new password' } });
        await new Promise((r) => setTimeout(r, Math.round((check * i) / 20)));
        const login = local.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
        const [r, l] = await Promise.all([reset, login]);
        expect(r.status).toBe(200);
        if (l.status === 200) {
          const after = await local.json('GET', '/api/user/profile', { token: l.body.data.token });
          if (after.status === 200) survivors.push(i);
        } else {
          expect(l.body.code).toBe('INVALID_CREDENTIALS');
        }
      }
      expect(survivors).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('a reset link asked for before a password change no longer works after it; one link is live at a time', async () => {
    const u = await t.signUp();
    await t.json('POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const key = t.linkSecret(u.email, 'key');
    const changed = await t.json('POST', '/api/user/change-password', {
      token: u.token,
      body: { oldPassword: u.password, newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(200);
    const reset = await t.json('POST', '/api/auth/reset-password', { body: { key, password: 'reset after change' } });
    expect(reset.status).toBe(400);
    expect(reset.body.code).toBe('INVALID_TOKEN');

    await Promise.all(
      Array.from({ length: 3 }, () => t.json('POST', '/api/auth/forgot-password', { body: { email: u.email } })),
    );
    const [row] = await t.database.db.select().from(users).where(eq(users.email, u.email));
    const live = await t.database.db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, row!.id), eq(emailTokens.kind, 'reset'), isNull(emailTokens.usedAt)));
    expect(live).toHaveLength(1);
  });

  it('a time zone this server does not know is stored as UTC at sign-up', async () => {
    const email = `tz-${Date.now()}@example.com`;
    const reg = await t.json('POST', '/api/auth/register', {
      body: { email, password: 'long enough pw', name: 'Tz', timezone: 'Mars/Olympus_Mons' },
    });
    expect(reg.status).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.timezone).toBe('UTC');
  });
});
