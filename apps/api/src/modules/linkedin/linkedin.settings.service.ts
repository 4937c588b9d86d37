import {
  DEFAULT_LINKEDIN_SETTINGS,
  linkedinSettingsSchema,
  type linkedinSettingsUpdateSchema,
  type LinkedinSettings,
  type Plan,
  type PlanId,
} from '@parley/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import * as engage from './linkedin.engage.queries.js';
import * as q from './linkedin.settings.queries.js';

/** Who is asking, and the plan of the wallet that pays for them. */
export type LinkedinCaller = { user: { id: string; timezone: string }; wallet: { plan: PlanId } };
export type SettingsChange = z.output<typeof linkedinSettingsUpdateSchema>;

/**
 * Whether the caller's plan may prepare drafts on its own every day (auto-engage): any plan without the free tier's
 * daily limit (Pro, Plus, Team, own keys, and the lifetime deal), as the server's catalogue says (decision 033).
 */
export const mayAutoEngage = (plans: Record<PlanId, Plan>, caller: LinkedinCaller) => !plans[caller.wallet.plan].gated;

/** A stored document read with today's schema: unknown or invalid values fall back to their default, one by one. */
export function readSettings(stored: Record<string, unknown> | undefined): LinkedinSettings {
  if (!stored) return { ...DEFAULT_LINKEDIN_SETTINGS };
  const out: Record<string, unknown> = { ...DEFAULT_LINKEDIN_SETTINGS };
  const shape = linkedinSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    if (!(key in stored)) continue;
    const parsed = shape[key].safeParse(stored[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as LinkedinSettings;
}

/** LinkedIn settings and AI customization (spec §3): one document per person, changed in parts. */
export function createLinkedinSettings({
  db,
  plans,
  clock,
}: {
  db: Db;
  plans: Record<PlanId, Plan>;
  clock: () => Date;
}) {
  /** The settings drafts follow; auto-engage reads as off while the plan does not allow it. */
  async function settingsOf(caller: LinkedinCaller) {
    const settings = readSettings(await q.findSettings(db, caller.user.id));
    return { ...settings, autoEngage: settings.autoEngage && mayAutoEngage(plans, caller) };
  }

  return {
    settingsOf,
    get: settingsOf,

    /**
     * Changes what `change` names. Switching auto-engage on needs a plan without the daily limit (UPGRADE_REQUIRED
     * otherwise, nothing changed); on, each active keyword gets its daily run (due now); off, the runs stop.
     */
    async update(caller: LinkedinCaller, change: SettingsChange) {
      if (change.autoEngage && !mayAutoEngage(plans, caller)) throw new DomainError('UPGRADE_REQUIRED');
      const now = clock();
      await db.transaction(async (tx) => {
        await engage.lockPerson(tx, caller.user.id);
        const current = readSettings(await q.findSettings(tx, caller.user.id));
        const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
        const next = linkedinSettingsSchema.parse({ ...current, ...defined });
        await q.saveSettings(tx, caller.user.id, next, now);
        if (change.autoEngage === true) await engage.keepDailyRuns(tx, caller.user.id, now);
        if (change.autoEngage === false) await engage.stopDailyRuns(tx, caller.user.id, now);
      });
      return settingsOf(caller);
    },
  };
}

export type LinkedinSettingsService = ReturnType<typeof createLinkedinSettings>;
