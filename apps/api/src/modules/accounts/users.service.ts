import { randomBytes } from 'node:crypto';
import type { ProfileUpdate, SettingsUpdate } from '@parley/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { DomainError, RateLimitedError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import * as q from './accounts.queries.js';
import { isKnownTimeZone } from '../../lib/time.js';
import type { AccountsBilling } from './billing-port.js';
import { planChange } from './plan-change.js';
import { toProfile, withDefaults } from './profile.js';
import type { RequestContext } from './request-context.js';

/**
 * Gives the account a channel's upgrade (early bird; app deal, which is for life) only if it does not have it yet, in
 * one conditional statement: of two upgrades at once, the second waits for the first's row lock and then finds the
 * mark made. Undefined when the account already had it (the request's copy of the account may be older than that).
 */
export async function markUpgrade(tx: Tx, id: string, upgrade: 'earlyBird' | 'appDeal') {
  const [row] = await tx
    .update(users)
    .set(
      upgrade === 'appDeal'
        ? { appDeal: true, lifetimeUser: true, updatedAt: new Date() }
        : { earlyBird: true, updatedAt: new Date() },
    )
    .where(and(eq(users.id, id), eq(upgrade === 'appDeal' ? users.appDeal : users.earlyBird, false)))
    .returning();
  return row;
}

/** The signed-in person, as routes hand it over (the request's caller). */
type Signed = { user: q.Account };

export function createUserService({
  db,
  passwords,
  billing,
  limits,
  rateLimits,
}: {
  db: Db;
  passwords: PasswordHasher;
  billing: AccountsBilling;
  limits: RateLimitStore;
  /** Redeeming a code: at most `perEmail` attempts per account and `perIp` per address in each window. */
  rateLimits: { windowSeconds: number; perIp: number; perEmail: number };
}) {
  const profileOf = async (who: Signed) => toProfile(who.user, await billing.profileCredits(who));

  /** Counts one attempt against each key; the first key over its limit stops the request. */
  async function limit(checks: [key: string, max: number][]) {
    for (const [key, max] of checks) {
      const { count, resetInMs } = await limits.hit(key, rateLimits.windowSeconds * 1000);
      if (count > max) throw new RateLimitedError(resetInMs / 1000);
    }
  }

  /** Runs an upgrade and returns the profile after it, with what it changed. */
  async function upgrade(who: Signed, run: () => Promise<q.UserRow>) {
    const before = await billing.profileCredits(who);
    const updated = q.toAccount(await run());
    const user = await profileOf({ user: updated });
    return {
      user,
      change: planChange({ user: who.user, credits: before.credits }, { user: updated, credits: user.credits }),
    };
  }

  return {
    profile: profileOf,

    async updateProfile({ user }: Signed, patch: ProfileUpdate) {
      if (patch.timezone !== undefined && !isKnownTimeZone(patch.timezone)) {
        throw new DomainError('VALIDATION_FAILED', { path: 'timezone' });
      }
      const updated = (await q.updateUser(db, user.id, patch))!;
      if (patch.timezone !== undefined && patch.timezone !== user.timezone) await billing.timezoneChanged(updated);
      return profileOf({ user: q.toAccount(updated) });
    },

    async settings({ user }: Signed) {
      return withDefaults(await q.getSettings(db, user.id));
    },

    async updateSettings({ user }: Signed, patch: SettingsUpdate) {
      return withDefaults(await q.mergeSettings(db, user.id, patch));
    },

    async upgradeToEarlyBird(who: Signed) {
      const { user } = who;
      if (user.earlyBird) throw new DomainError('ALREADY_UPGRADED');
      return upgrade(who, () =>
        db.transaction(async (tx) => {
          const marked = await markUpgrade(tx, user.id, 'earlyBird');
          if (!marked) throw new DomainError('ALREADY_UPGRADED');
          await billing.changePlan(tx, marked, 'earlyBird');
          return marked;
        }),
      );
    },

    /**
     * Redeems a single-use licence code on the signed-in account. Attempts are counted per account and per address,
     * so codes cannot be guessed by trying many.
     */
    async upgradeToAppDeal(who: Signed, code: string, ctx: Pick<RequestContext, 'ip'>) {
      const { user } = who;
      await limit([
        [`redeem:user:${user.id}`, rateLimits.perEmail],
        [`redeem:ip:${ctx.ip}`, rateLimits.perIp],
      ]);
      if (user.appDeal) throw new DomainError('ALREADY_UPGRADED');
      return upgrade(who, () =>
        db.transaction(async (tx) => {
          // The account first: a second code redeemed at the same time waits here, then finds the account upgraded
          // and is left unused (its redemption would roll back with this transaction anyway).
          const marked = await markUpgrade(tx, user.id, 'appDeal');
          if (!marked) throw new DomainError('ALREADY_UPGRADED');
          if (!(await q.redeemLicenceCode(tx, code, user.id))) throw new DomainError('INVALID_LICENCE_CODE');
          await billing.changePlan(tx, marked, 'appDeal');
          return marked;
        }),
      );
    },

    /** Command-line only: a verified site admin (an existing account is promoted, its password set). */
    async createAdmin(input: { email: string; password: string; name: string }) {
      const passwordHash = await passwords.hash(input.password);
      const existing = await q.findUserByEmail(db, input.email);
      if (existing) {
        const promoted = (await q.updateUser(db, existing.id, { role: 'admin', verified: true, passwordHash }))!;
        return profileOf({ user: q.toAccount(promoted) });
      }
      const created = await db.transaction(async (tx) => {
        const user = await q.insertUser(tx, {
          email: input.email,
          passwordHash,
          name: input.name,
          role: 'admin',
          verified: true,
        });
        await billing.openWallet(tx, user, 'free');
        return user;
      });
      return profileOf({ user: q.toAccount(created) });
    },

    /** Command-line only: the id of the account with this e-mail address, if there is one. */
    async idOfEmail(email: string) {
      return (await q.findUserByEmail(db, email))?.id ?? null;
    },

    /** Command-line only: new single-use app-deal licence codes, e.g. PARLEY-7K3M-Q9XD-2HRT. */
    async createLicenceCodes(count: number) {
      const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
      const codes = Array.from({ length: count }, () => {
        const bytes = randomBytes(12);
        const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
        return `PARLEY-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
      });
      await q.insertLicenceCodes(db, codes);
      return codes;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
