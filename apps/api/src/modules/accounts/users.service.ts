import { randomBytes } from 'node:crypto';
import {
  APP_DEAL_ALLOWANCE,
  EARLY_BIRD_ALLOWANCE,
  FREE_ALLOWANCE,
  type ProfileUpdate,
  type SettingsUpdate,
} from '@parley/contract';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import * as q from './accounts.queries.js';
import { toProfile, withDefaults } from './profile.js';

function isKnownTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function createUserService({ db, passwords }: { db: Db; passwords: PasswordHasher }) {
  return {
    profile: (user: q.UserRow) => toProfile(user),

    async updateProfile(user: q.UserRow, patch: ProfileUpdate) {
      if (patch.timezone !== undefined && !isKnownTimeZone(patch.timezone)) {
        throw new DomainError('VALIDATION_FAILED', { path: 'timezone' });
      }
      const updated = await q.updateUser(db, user.id, patch);
      return toProfile(updated!);
    },

    async settings(user: q.UserRow) {
      return withDefaults(await q.getSettings(db, user.id));
    },

    async updateSettings(user: q.UserRow, patch: SettingsUpdate) {
      return withDefaults(await q.mergeSettings(db, user.id, patch));
    },

    async upgradeToEarlyBird(user: q.UserRow) {
      if (user.earlyBird) throw new DomainError('ALREADY_UPGRADED');
      return toProfile((await q.grantAllowance(db, user.id, EARLY_BIRD_ALLOWANCE, { earlyBird: true }))!);
    },

    async upgradeToAppDeal(user: q.UserRow, code: string) {
      if (user.appDeal) throw new DomainError('ALREADY_UPGRADED');
      const updated = await db.transaction(async (tx) => {
        if (!(await q.redeemLicenceCode(tx, code, user.id))) throw new DomainError('INVALID_LICENCE_CODE');
        return q.grantAllowance(tx, user.id, APP_DEAL_ALLOWANCE, { appDeal: true, lifetimeUser: true });
      });
      return toProfile(updated!);
    },

    /** Command-line only: a verified site admin (an existing account is promoted, its password set). */
    async createAdmin(input: { email: string; password: string; name: string }) {
      const passwordHash = await passwords.hash(input.password);
      const existing = await q.findUserByEmail(db, input.email);
      if (existing) {
        return toProfile((await q.updateUser(db, existing.id, { role: 'admin', verified: true, passwordHash }))!);
      }
      return toProfile(
        await db.transaction((tx) =>
          q.insertUser(tx, {
            email: input.email,
            passwordHash,
            name: input.name,
            role: 'admin',
            verified: true,
            ...FREE_ALLOWANCE,
          }),
        ),
      );
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
