import {
  ENGAGE_EVERY_HOURS,
  KEYWORDS_MAX,
  PROFILES_MAX,
  type FollowedProfile,
  type Keyword,
  type Plan,
  type PlanId,
} from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unavailable.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { localDate } from '../../lib/time.js';
import * as q from './linkedin.engage.queries.js';
import * as settingsQ from './linkedin.settings.queries.js';
import { mayAutoEngage, readSettings, type LinkedinCaller } from './linkedin.settings.service.js';

const HOUR = 3_600_000;

/**
 * A LinkedIn profile or company page address in one form: https://www.linkedin.com/in/<slug>/ (lowercase slug,
 * percent-encoded), whatever the subdomain, query or trailing parts it was given with; null when it is not one.
 */
export function normalizeProfileUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(parsed.protocol) || !/(^|\.)linkedin\.com$/i.test(parsed.hostname)) return null;
  const m = /^\/(in|company)\/([^/]{1,300})(\/.*)?$/i.exec(parsed.pathname);
  if (!m) return null;
  let slug = m[2]!;
  try {
    slug = decodeURIComponent(slug);
  } catch {
    return null;
  }
  slug = slug.trim().toLowerCase();
  if (!slug || slug.length > 100 || /[\s/?#]/.test(slug)) return null;
  return `https://www.linkedin.com/${m[1]!.toLowerCase()}/${encodeURIComponent(slug)}/`;
}

/** Active and not run in the last ENGAGE_EVERY_HOURS: the extension prepares its drafts when the person is on LinkedIn. */
export const isDue = (row: { active: boolean; lastRunAt: Date | null }, now: Date) =>
  row.active && (!row.lastRunAt || now.getTime() - row.lastRunAt.getTime() >= ENGAGE_EVERY_HOURS * HOUR);

type KeywordInput = { keyword: string; avoid: string[]; include: string[]; active: boolean };
type KeywordChange = Partial<KeywordInput>;
type ProfileInput = { url: string; name?: string | undefined; active: boolean };
type ProfileChange = Partial<ProfileInput>;

/** Distinct words of a list (case-insensitive), as the person wrote them. */
const distinct = (words: string[]) => {
  const seen = new Set<string>();
  return words.filter((w) => {
    const key = w.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/**
 * Keywords and followed profiles to engage on (spec §3, §5): each person's own, within KEYWORDS_MAX and
 * PROFILES_MAX, each once. Changes take the person's lock, so caps and duplicates are decided one at a time.
 */
export function createLinkedinEngage({ db, plans, clock }: { db: Db; plans: Record<PlanId, Plan>; clock: () => Date }) {
  const asPerson = <T>(caller: LinkedinCaller, fn: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await q.lockPerson(tx, caller.user.id);
      return fn(tx);
    });

  /** Whether the person's keywords get daily runs: auto-engage on, and a plan that allows it. */
  const autoEngages = async (tx: Tx, caller: LinkedinCaller) =>
    mayAutoEngage(plans, caller) && readSettings(await settingsQ.findSettings(tx, caller.user.id)).autoEngage;

  const today = (caller: LinkedinCaller) => localDate(clock(), caller.user.timezone);

  const toKeyword = (row: q.KeywordRow, draftsToday: number, now: Date): Keyword => ({
    id: row.id,
    keyword: row.keyword,
    avoid: row.avoid,
    include: row.include,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    draftsToday,
    due: isDue(row, now),
  });
  const toProfile = (row: q.ProfileRow, draftsToday: number, now: Date): FollowedProfile => ({
    id: row.id,
    url: row.url,
    name: row.name,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    draftsToday,
    due: isDue(row, now),
  });

  const keywordOut = async (caller: LinkedinCaller, row: q.KeywordRow) => {
    const counts = await q.draftsByKeywordOn(db, caller.user.id, today(caller));
    return toKeyword(row, counts.find((c) => c.keywordId === row.id)?.n ?? 0, clock());
  };
  const profileOut = async (caller: LinkedinCaller, row: q.ProfileRow) => {
    const counts = await q.draftsByProfileOn(db, caller.user.id, today(caller));
    return toProfile(row, counts.find((c) => c.profileUrl === row.url)?.n ?? 0, clock());
  };

  /** Two requests adding the same keyword or profile at once: the unique index lets one in. */
  const once = async <T>(code: 'LINKEDIN_KEYWORD_EXISTS' | 'LINKEDIN_PROFILE_EXISTS', fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError(code);
      throw error;
    }
  };

  return {
    async keywords(caller: LinkedinCaller) {
      const [rows, counts] = await Promise.all([
        q.listKeywords(db, caller.user.id),
        q.draftsByKeywordOn(db, caller.user.id, today(caller)),
      ]);
      const byId = new Map(counts.map((c) => [c.keywordId, c.n]));
      const now = clock();
      return { keywords: rows.map((r) => toKeyword(r, byId.get(r.id) ?? 0, now)) };
    },

    async addKeyword(caller: LinkedinCaller, input: KeywordInput) {
      const row = await once('LINKEDIN_KEYWORD_EXISTS', () =>
        asPerson(caller, async (tx) => {
          if (await q.keywordNamed(tx, caller.user.id, input.keyword)) throw new DomainError('LINKEDIN_KEYWORD_EXISTS');
          if ((await q.countKeywords(tx, caller.user.id)) >= KEYWORDS_MAX)
            throw new DomainError('TOO_MANY_ITEMS', { max: KEYWORDS_MAX });
          const row = await q.insertKeyword(tx, caller.user.id, {
            keyword: input.keyword,
            avoid: distinct(input.avoid),
            include: distinct(input.include),
            active: input.active,
          });
          if (row.active && (await autoEngages(tx, caller)))
            await q.keepDailyRuns(tx, caller.user.id, clock(), [row.id]);
          return row;
        }),
      );
      return keywordOut(caller, row);
    },

    async updateKeyword(caller: LinkedinCaller, id: string, change: KeywordChange) {
      const row = await once('LINKEDIN_KEYWORD_EXISTS', () =>
        asPerson(caller, async (tx) => {
          if (!(await q.findKeyword(tx, caller.user.id, id))) throw new NotFoundError('keyword');
          if (change.keyword !== undefined && (await q.keywordNamed(tx, caller.user.id, change.keyword, id)))
            throw new DomainError('LINKEDIN_KEYWORD_EXISTS');
          const row = await q.updateKeyword(tx, caller.user.id, id, {
            ...(change.keyword !== undefined ? { keyword: change.keyword } : {}),
            ...(change.avoid !== undefined ? { avoid: distinct(change.avoid) } : {}),
            ...(change.include !== undefined ? { include: distinct(change.include) } : {}),
            ...(change.active !== undefined ? { active: change.active } : {}),
          });
          if (!row) throw new NotFoundError('keyword');
          if (change.active === false) await q.stopDailyRuns(tx, caller.user.id, clock(), [id]);
          if (change.active === true && (await autoEngages(tx, caller)))
            await q.keepDailyRuns(tx, caller.user.id, clock(), [id]);
          return row;
        }),
      );
      return keywordOut(caller, row);
    },

    async deleteKeyword(caller: LinkedinCaller, id: string) {
      // Its daily run goes with it (the automation's foreign key cascades); its drafts stay, without the link.
      const deleted = await asPerson(caller, (tx) => q.deleteKeyword(tx, caller.user.id, id));
      if (!deleted) throw new NotFoundError('keyword');
      return { deleted };
    },

    async profiles(caller: LinkedinCaller) {
      const [rows, counts] = await Promise.all([
        q.listProfiles(db, caller.user.id),
        q.draftsByProfileOn(db, caller.user.id, today(caller)),
      ]);
      const byUrl = new Map(counts.map((c) => [c.profileUrl, c.n]));
      const now = clock();
      return { profiles: rows.map((r) => toProfile(r, byUrl.get(r.url) ?? 0, now)) };
    },

    async addProfile(caller: LinkedinCaller, input: ProfileInput) {
      const url = normalizeProfileUrl(input.url);
      if (!url) throw new DomainError('VALIDATION_FAILED');
      const row = await once('LINKEDIN_PROFILE_EXISTS', () =>
        asPerson(caller, async (tx) => {
          if (await q.profileWithUrl(tx, caller.user.id, url)) throw new DomainError('LINKEDIN_PROFILE_EXISTS');
          if ((await q.countProfiles(tx, caller.user.id)) >= PROFILES_MAX)
            throw new DomainError('TOO_MANY_ITEMS', { max: PROFILES_MAX });
          return q.insertProfile(tx, caller.user.id, { url, name: input.name || null, active: input.active });
        }),
      );
      return profileOut(caller, row);
    },

    async updateProfile(caller: LinkedinCaller, id: string, change: ProfileChange) {
      const url = change.url === undefined ? undefined : normalizeProfileUrl(change.url);
      if (url === null) throw new DomainError('VALIDATION_FAILED');
      const row = await once('LINKEDIN_PROFILE_EXISTS', () =>
        asPerson(caller, async (tx) => {
          const current = await q.findProfile(tx, caller.user.id, id);
          if (!current) throw new NotFoundError('profile');
          if (url !== undefined && url !== current.url && (await q.profileWithUrl(tx, caller.user.id, url)))
            throw new DomainError('LINKEDIN_PROFILE_EXISTS');
          const row = await q.updateProfile(tx, caller.user.id, id, {
            ...(url !== undefined ? { url } : {}),
            ...(change.name !== undefined ? { name: change.name || null } : {}),
            ...(change.active !== undefined ? { active: change.active } : {}),
          });
          if (!row) throw new NotFoundError('profile');
          return row;
        }),
      );
      return profileOut(caller, row);
    },

    async deleteProfile(caller: LinkedinCaller, id: string) {
      const deleted = await asPerson(caller, (tx) => q.deleteProfile(tx, caller.user.id, id));
      if (!deleted) throw new NotFoundError('profile');
      return { deleted };
    },
  };
}

export type LinkedinEngageService = ReturnType<typeof createLinkedinEngage>;
