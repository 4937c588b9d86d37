import { settingsSchema, type Profile, type Settings } from '@parley/contract';
import type { Account } from './accounts.queries.js';

/** The credits and the last 30 days of use a profile shows: billing's, passed in (see AccountsBilling). */
export type ProfileCredits = Pick<Profile, 'credits' | 'basicUse' | 'advanceUse' | 'extraAdvanceUse' | 'monthlyUse'>;

export function toProfile(u: Account, credits: ProfileCredits): Profile {
  return {
    id: u.id,
    profileId: u.id,
    email: u.email,
    name: u.name,
    fullName: u.fullName,
    role: u.role,
    timezone: u.timezone,
    language: u.language,
    // Named one by one: no object spread on a path every request takes (see billing.queries.ts, toSessionWithWallet).
    credits: credits.credits,
    basicUse: credits.basicUse,
    advanceUse: credits.advanceUse,
    extraAdvanceUse: credits.extraAdvanceUse,
    monthlyUse: credits.monthlyUse,
    joinDate: u.createdAt.toISOString(),
    loginCount: u.loginCount,
    lifetimeUser: u.lifetimeUser,
    multipleLogin: u.multipleLogin,
    verified: u.verified,
    earlyBird: u.earlyBird,
    appDeal: u.appDeal,
    hasPassword: u.hasPassword,
    googleLinked: u.googleLinked,
  };
}

/** Stored settings are partial; a value that no longer validates falls back to its default instead of failing. */
export function withDefaults(stored: Partial<Settings>): Settings {
  const shape = settingsSchema.shape;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape) as (keyof Settings)[]) {
    const parsed = shape[key].safeParse(stored[key]);
    out[key] = parsed.success ? parsed.data : shape[key].parse(undefined);
  }
  return out as Settings;
}
