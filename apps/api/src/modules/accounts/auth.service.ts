import { PASSWORD_MIN, type ChannelResult, type LoginResult, type PlanChange, type UiLanguage } from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { DomainError, RateLimitedError } from '../../lib/errors.js';
import { zoneOrUtc } from '../../lib/time.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import type { GoogleVerifier } from '../../providers/google.js';
import type { Mailer } from '../../providers/mail/index.js';
import { renderMail } from '../../providers/mail/templates.js';
import * as q from './accounts.queries.js';
import type { RequestContext } from './request-context.js';
import type { AccountPlan, AccountsBilling } from './billing-port.js';
import { planChange } from './plan-change.js';
import { toProfile } from './profile.js';
import { markUpgrade } from './users.service.js';

export const VERIFY_TTL_HOURS = 24;
export const RESET_TTL_MINUTES = 60;

/** Why a session ended, and whether the client should be told it was logged out elsewhere (409). */
export const FORCED_REASONS = new Set(['replaced', 'password_changed', 'password_reset', 'forced']);

type Deps = {
  db: Db;
  config: Config;
  mailer: Mailer;
  passwords: PasswordHasher;
  google: GoogleVerifier;
  limits: RateLimitStore;
  log: FastifyBaseLogger;
  billing: AccountsBilling;
};

/** What a new account with a password is made from. */
type NewAccount = {
  email: string;
  password: string;
  name: string;
  language?: UiLanguage | undefined;
  timezone?: string | undefined;
};

export function createAuthService({ db, config, mailer, passwords, google, limits, log, billing }: Deps) {
  const windowMs = config.rateLimits.windowSeconds * 1000;

  /** Token hash → user id of sessions seen recently (at most 10,000, oldest dropped first); only ever a hint. */
  const owners = new Map<string, string>();
  const rememberOwner = (tokenHash: string, userId: string) => {
    if (owners.get(tokenHash) === userId) return;
    owners.set(tokenHash, userId);
    if (owners.size > 10_000) owners.delete(owners.keys().next().value!);
  };

  /** A session as read: live at `now` → its caller; ended by another login or a password change → 409; else 401. */
  const verify = (tokenHash: string, row: q.SessionWithUser | undefined, now: number) => {
    const live = row && !row.session.revokedAt && row.session.expiresAt.getTime() > now;
    if (!live) owners.delete(tokenHash);
    if (!row) throw new DomainError('UNAUTHENTICATED');
    const { session, user } = row;
    if (session.revokedAt) {
      const reason = session.revokedReason ?? '';
      // The message says why (`errors.SESSION_REPLACED_<reason>`): another sign-in, a new password, every device.
      if (FORCED_REASONS.has(reason)) throw new DomainError('SESSION_REPLACED', { context: reason });
      throw new DomainError('UNAUTHENTICATED');
    }
    if (!live) throw new DomainError('UNAUTHENTICATED');
    rememberOwner(tokenHash, user.id);
    return { user, session };
  };

  /** Counts one attempt against each key; the first key over its limit stops the request. */
  async function limit(checks: [key: string, max: number][]) {
    for (const [key, max] of checks) {
      const { count, resetInMs } = await limits.hit(key, windowMs);
      if (count > max) throw new RateLimitedError(resetInMs / 1000);
    }
  }

  /**
   * Counts an attempt at a password under `key` before the password is checked, and refuses it once the count is over
   * the limit (a right password clears the count). Guesses sent at once each find the others counted: a look before
   * the (slow) check and a count after it let every guess of a burst be checked.
   */
  async function countPasswordAttempt(key: string) {
    const { count, resetInMs } = await limits.hit(key, windowMs);
    if (count > config.rateLimits.loginMaxFailures) throw new RateLimitedError(resetInMs / 1000);
  }

  /** Sends after the data is committed; a mail failure is logged, never turned into lost data. */
  async function sendMail(message: Parameters<Mailer['send']>[0]) {
    try {
      await mailer.send(message);
    } catch (error) {
      log.error({ err: error }, 'mail delivery failed');
    }
  }

  async function issueEmailToken(user: q.UserRow, kind: 'verify' | 'reset', lang: UiLanguage) {
    const secret = newSecret();
    const ttlMs = kind === 'verify' ? VERIFY_TTL_HOURS * 3600_000 : RESET_TTL_MINUTES * 60_000;
    // One live link of a kind: the older ones end as the new one is made, under the user's row lock, so that links
    // asked for at the same time do not all stay live.
    await db.transaction(async (tx) => {
      await q.lockUser(tx, user.id);
      await q.expireEmailTokens(tx, user.id, kind);
      await q.insertEmailToken(tx, {
        userId: user.id,
        kind,
        tokenHash: hashSecret(secret),
        expiresAt: new Date(Date.now() + ttlMs),
      });
    });
    const link =
      kind === 'verify'
        ? `${config.publicUrl}/verify-email?token=${secret}`
        : `${config.publicUrl}/reset-password?key=${secret}`;
    await sendMail(
      renderMail(lang, kind, user.email, {
        name: user.name,
        link,
        hours: VERIFY_TTL_HOURS,
        minutes: RESET_TTL_MINUTES,
      }),
    );
  }

  /**
   * A new session; a user without "multiple login" loses the others (their next call answers 409). Made under the
   * user's row lock, with the row as it is then: a password reset or change that committed since `user` was read (the
   * password checked against it) refuses the sign-in, and concurrent sign-ins end each other's sessions in turn.
   */
  async function startSession(user: q.UserRow, ctx: RequestContext): Promise<LoginResult> {
    const token = newSecret();
    const updated = await db.transaction(async (tx) => {
      const now = await q.lockUser(tx, user.id);
      if (!now || now.passwordHash !== user.passwordHash) throw new DomainError('INVALID_CREDENTIALS');
      if (!now.multipleLogin) await q.revokeUserSessions(tx, user.id, 'replaced');
      await q.insertSession(tx, {
        userId: user.id,
        tokenHash: hashSecret(token),
        deviceType: ctx.deviceType ?? 'WEB',
        userAgent: ctx.userAgent?.slice(0, 400),
        ip: ctx.ip,
        expiresAt: new Date(Date.now() + config.sessionTtlDays * 86400_000),
      });
      return q.incrementLoginCount(tx, user.id);
    });
    const account = q.toAccount(updated);
    return { token, user: toProfile(account, await billing.profileCredits({ user: account })) };
  }

  /** Consumes a verification or reset link: unknown/used → INVALID_TOKEN, late → TOKEN_EXPIRED. */
  async function consumeLink(kind: 'verify' | 'reset', secret: string) {
    const row = await q.findEmailToken(db, kind, hashSecret(secret));
    if (!row || row.usedAt) throw new DomainError('INVALID_TOKEN');
    if (row.expiresAt.getTime() <= Date.now()) throw new DomainError('TOKEN_EXPIRED');
    const consumed = await q.consumeEmailToken(db, row.id);
    if (!consumed) throw new DomainError('INVALID_TOKEN');
    return consumed.userId;
  }

  function isUniqueViolation(error: unknown) {
    const e = error as { code?: string; cause?: { code?: string } };
    return e?.code === '23505' || e?.cause?.code === '23505';
  }

  /** A new account with its wallet, in one transaction. */
  async function createUser(values: q.NewUser, plan: AccountPlan, within?: (tx: Tx, user: q.UserRow) => Promise<void>) {
    return db.transaction(async (tx) => {
      const user = await q.insertUser(tx, values);
      await billing.openWallet(tx, user, plan);
      await within?.(tx, user);
      return user;
    });
  }

  async function createPasswordUser(input: NewAccount, plan: AccountPlan, extra: Partial<q.NewUser> = {}) {
    const passwordHash = await passwords.hash(input.password);
    return createUser(
      {
        email: input.email,
        passwordHash,
        name: input.name,
        language: input.language ?? 'en',
        // The browser's zone, sent with the form: one this server does not know is stored as UTC, not kept.
        timezone: zoneOrUtc(input.timezone ?? 'UTC'),
        ...extra,
      },
      plan,
    );
  }

  return {
    /** Always answers the same way, so the form cannot be used to find out who has an account. */
    async register(input: NewAccount, ctx: RequestContext) {
      await limit([
        [`register:ip:${ctx.ip}`, config.rateLimits.perIp],
        [`register:email:${input.email}`, config.rateLimits.perEmail],
      ]);
      const existing = await q.findUserByEmail(db, input.email);
      if (existing) {
        await passwords.verifyDummy(input.password);
        // The owner hears of attempts on their address at most once an hour, however many are made.
        const { count } = await limits.hit(`register-mail:${existing.id}`, 3600_000);
        if (count > 1) return { email: input.email };
        if (existing.verified) {
          await sendMail(
            renderMail(existing.language, 'exists', existing.email, {
              name: existing.name,
              link: `${config.publicUrl}/login`,
            }),
          );
        } else {
          await issueEmailToken(existing, 'verify', existing.language);
        }
        return { email: input.email };
      }
      let user: q.UserRow;
      try {
        user = await createPasswordUser({ ...input, language: input.language ?? ctx.lang }, 'free');
      } catch (error) {
        if (isUniqueViolation(error)) return { email: input.email };
        throw error;
      }
      await issueEmailToken(user, 'verify', user.language);
      return { email: input.email };
    },

    async verifyEmail(secret: string, ctx: RequestContext) {
      await limit([[`verify:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      const userId = await consumeLink('verify', secret);
      await q.updateUser(db, userId, { verified: true });
    },

    async resendVerification(email: string, ctx: RequestContext) {
      await limit([
        [`verify:ip:${ctx.ip}`, config.rateLimits.perIp],
        [`resend:email:${email}`, Math.min(3, config.rateLimits.perEmail)],
      ]);
      const user = await q.findUserByEmail(db, email);
      if (user && !user.verified) await issueEmailToken(user, 'verify', user.language);
    },

    async login(input: { email: string; password: string }, ctx: RequestContext): Promise<LoginResult> {
      await limit([[`login:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      await countPasswordAttempt(`login-fail:${input.email}`);
      const user = await q.findUserByEmail(db, input.email);
      if (!user?.passwordHash) {
        await passwords.verifyDummy(input.password);
        if (user?.googleSub) throw new DomainError('ACCOUNT_USES_GOOGLE');
        throw new DomainError('INVALID_CREDENTIALS');
      }
      if (!(await passwords.verify(user.passwordHash, input.password))) throw new DomainError('INVALID_CREDENTIALS');
      await limits.reset(`login-fail:${input.email}`);
      if (!user.verified) throw new DomainError('EMAIL_NOT_VERIFIED');
      return startSession(user, ctx);
    },

    /** Google identity is keyed by its subject; an existing password account is never taken over silently. */
    async socialSignin(idToken: string, ctx: RequestContext): Promise<LoginResult> {
      await limit([[`login:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      const identity = await google(idToken);
      let user = await q.findUserByGoogleSub(db, identity.sub);
      if (!user) {
        const byEmail = await q.findUserByEmail(db, identity.email);
        if (byEmail && !byEmail.verified) {
          // Anyone can sign up with an address they do not own; Google has proved whose it is.
          user = await db.transaction(async (tx) => {
            const claimed = await q.claimUnverifiedForGoogle(tx, byEmail.id, identity.sub);
            if (claimed) await q.expireEmailTokens(tx, claimed.id, 'verify');
            return claimed;
          });
          if (!user) throw new DomainError('ACCOUNT_USES_PASSWORD');
          return startSession(user, ctx);
        }
        if (byEmail) throw new DomainError('ACCOUNT_USES_PASSWORD');
        try {
          user = await createUser(
            { email: identity.email, googleSub: identity.sub, name: identity.name, verified: true, language: ctx.lang },
            'free',
          );
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          user = await q.findUserByGoogleSub(db, identity.sub);
          if (!user) throw new DomainError('ACCOUNT_USES_PASSWORD');
        }
      }
      return startSession(user, ctx);
    },

    async forgotPassword(email: string, ctx: RequestContext) {
      await limit([
        [`forgot:ip:${ctx.ip}`, config.rateLimits.perIp],
        [`forgot:email:${email}`, Math.min(3, config.rateLimits.perEmail)],
      ]);
      const user = await q.findUserByEmail(db, email);
      if (user) await issueEmailToken(user, 'reset', user.language);
    },

    /** A reset proves the address, so the account is verified too; every session ends. */
    async resetPassword(key: string, password: string, ctx: RequestContext) {
      await limit([[`reset:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      const userId = await consumeLink('reset', key);
      const passwordHash = await passwords.hash(password);
      await db.transaction(async (tx) => {
        await q.updateUser(tx, userId, { passwordHash, verified: true });
        await q.revokeUserSessions(tx, userId, 'password_reset');
        await q.expireEmailTokens(tx, userId, 'reset');
      });
    },

    /** Early-bird channel: a new account is created (and verified by mail); an existing one signs in and is marked. */
    async earlyBird(
      input: Omit<NewAccount, 'name'> & { name?: string | undefined },
      ctx: RequestContext,
    ): Promise<ChannelResult> {
      await limit([[`register:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      let user = await q.findUserByEmail(db, input.email);
      let change: PlanChange | undefined;
      if (user) {
        await countPasswordAttempt(`login-fail:${input.email}`);
        if (!user.passwordHash || !(await passwords.verify(user.passwordHash, input.password))) {
          throw new DomainError(user.passwordHash ? 'INVALID_CREDENTIALS' : 'ACCOUNT_USES_GOOGLE');
        }
        await limits.reset(`login-fail:${input.email}`);
        if (!user.earlyBird) {
          const current = user;
          const before = await billing.profileCredits({ user: q.toAccount(current) });
          // Marked only if not yet: a sign-in or upgrade at the same time that marked it first leaves this one nothing
          // to change.
          const updated = await db.transaction(async (tx) => {
            const marked = await markUpgrade(tx, current.id, 'earlyBird');
            if (marked) await billing.changePlan(tx, marked, 'earlyBird');
            return marked;
          });
          if (updated) {
            user = updated;
            const after = await billing.profileCredits({ user: q.toAccount(user) });
            change = planChange({ user: current, credits: before.credits }, { user, credits: after.credits });
          } else {
            user = (await q.findUserById(db, current.id)) ?? current;
          }
        }
      } else {
        if (input.password.length < PASSWORD_MIN) throw new DomainError('VALIDATION_FAILED');
        try {
          user = await createPasswordUser(
            { ...input, name: input.name ?? input.email.split('@')[0]!, language: input.language ?? ctx.lang },
            'earlyBird',
            { earlyBird: true },
          );
        } catch (error) {
          if (isUniqueViolation(error)) throw new DomainError('EMAIL_TAKEN');
          throw error;
        }
      }
      if (!user.verified) {
        await issueEmailToken(user, 'verify', user.language);
        return { verificationSent: true, email: user.email };
      }
      return {
        ...(await startSession(user, ctx)),
        verificationSent: false,
        email: user.email,
        ...(change ? { change } : {}),
      };
    },

    /** App-deal channel: account and licence redemption commit together or not at all. */
    async appDeal(input: NewAccount & { code: string }, ctx: RequestContext): Promise<ChannelResult> {
      await limit([[`appdeal:ip:${ctx.ip}`, config.rateLimits.perIp]]);
      // The code first: only its holder learns whether the address has an account.
      if (!(await q.licenceCodeUsable(db, input.code))) throw new DomainError('INVALID_LICENCE_CODE');
      if (await q.findUserByEmail(db, input.email)) throw new DomainError('EMAIL_TAKEN');
      const passwordHash = await passwords.hash(input.password);
      let user: q.UserRow;
      try {
        user = await createUser(
          {
            email: input.email,
            passwordHash,
            name: input.name,
            language: input.language ?? ctx.lang,
            timezone: zoneOrUtc(input.timezone ?? 'UTC'),
            appDeal: true,
            lifetimeUser: true,
          },
          'appDeal',
          async (tx, created) => {
            if (!(await q.redeemLicenceCode(tx, input.code, created.id))) throw new DomainError('INVALID_LICENCE_CODE');
          },
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new DomainError('EMAIL_TAKEN');
        throw error;
      }
      await issueEmailToken(user, 'verify', user.language);
      return { verificationSent: true, email: user.email };
    },

    /** The caller behind a bearer token. Ended by another login or a password change → 409; otherwise → 401. */
    async authenticate(token: string) {
      const tokenHash = hashSecret(token);
      return verify(tokenHash, await q.findSessionWithUser(db, tokenHash), Date.now());
    },

    /**
     * `authenticate`, with the session read by `read` instead, which may do more in the same statement (reserve a
     * credit, say) but only for a session live at the time it is given. `read`'s other results come back with the
     * caller; whatever the check refuses, `read` did nothing for it.
     */
    async authenticateWith<T>(
      token: string,
      read: (tokenHash: string, now: Date) => Promise<{ found: q.SessionWithUser | undefined } & T>,
    ) {
      const tokenHash = hashSecret(token);
      const now = new Date();
      const result = await read(tokenHash, now);
      return { caller: verify(tokenHash, result.found, now.getTime()), result };
    },

    /**
     * Whose token this was when it last authenticated here: a hint that lets a request start its own lookups while
     * `authenticate` is still checking the session. Never a substitute for it; the hint says nothing about validity.
     */
    ownerHint(token: string): string | undefined {
      return owners.get(hashSecret(token));
    },

    async logout(sessionId: string) {
      await q.revokeSession(db, sessionId, 'logout');
    },

    async changePassword(account: q.Account, sessionId: string, input: { oldPassword: string; newPassword: string }) {
      // The password hash never rides with a request: it is read here, fresh.
      const user = (await q.findUserById(db, account.id))!;
      const key = `chpw-fail:${user.id}`;
      await countPasswordAttempt(key);
      if (!user.passwordHash) throw new DomainError('ACCOUNT_USES_GOOGLE');
      if (!(await passwords.verify(user.passwordHash, input.oldPassword))) throw new DomainError('WRONG_PASSWORD');
      await limits.reset(key);
      if (input.oldPassword === input.newPassword) throw new DomainError('SAME_PASSWORD');
      const passwordHash = await passwords.hash(input.newPassword);
      await db.transaction(async (tx) => {
        // Only over the password that was checked: a change or reset committed meanwhile wins.
        const locked = await q.lockUser(tx, user.id);
        if (!locked || locked.passwordHash !== user.passwordHash) throw new DomainError('WRONG_PASSWORD');
        await q.updateUser(tx, user.id, { passwordHash });
        await q.revokeUserSessions(tx, user.id, 'password_changed', sessionId);
        // A reset link asked for before the change must not undo it.
        await q.expireEmailTokens(tx, user.id, 'reset');
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
