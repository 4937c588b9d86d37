import {
  DRAFT_FLAGS,
  DRAFT_TEXT_MAX,
  DRAFTS_PER_DAY_MAX,
  ENGAGE_EVERY_HOURS,
  ENGAGE_POST_MAX_AGE_HOURS,
  type CandidatePost,
  type Draft,
  type DraftResult,
  type DraftStatus,
  type LinkedinSettings,
} from '@parley/contract';
import { generateText } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { localDate } from '../../lib/time.js';
import { describeError } from '../../providers/ai/stream.js';
import type { UserService } from '../accounts/index.js';
import type { BillingService, Caller } from '../billing/index.js';
import type { ModelsService } from '../models/index.js';
import * as q from './linkedin.drafts.queries.js';
import {
  cleanDraft,
  detectLanguages,
  draftSystemPrompt,
  hasAny,
  hasInstructions,
  hasWord,
  languageAllowed,
  languageName,
  postAsData,
  temperatureOf,
  type DraftFlag,
} from './linkedin.drafts.text.js';
import * as engage from './linkedin.engage.queries.js';
import { normalizeProfileUrl } from './linkedin.engage.service.js';
import type { LinkedinSettingsService } from './linkedin.settings.service.js';

const HOUR = 3_600_000;
/** A post held for a draft whose writing never finished (a process stopped mid-call) is let go after this. */
const CLAIM_TTL_MS = 15 * 60_000;
/** Drafts written at once for one request (each one AI call). */
const PARALLEL = 3;
const EXCERPT_MAX = 280;
const LIST_MAX = 200;

type SkipReason = DraftResult['skipped'][number]['reason'];
type DraftRequest = {
  posts: CandidatePost[];
  keyword?: string | undefined;
  profileUrl?: string | undefined;
  manual: boolean;
};
type Planned = { post: CandidatePost; keyword: engage.KeywordRow | null; profileUrl: string | null };

const toDraft = (row: q.DraftRow): Draft => ({
  id: row.id,
  postUrn: row.postUrn,
  postUrl: row.postUrl,
  authorName: row.authorName,
  postExcerpt: row.postExcerpt,
  keyword: row.keyword,
  profileUrl: row.profileUrl,
  text: row.text,
  status: row.status,
  flags: row.flags.filter((f): f is (typeof DRAFT_FLAGS)[number] => (DRAFT_FLAGS as readonly string[]).includes(f)),
  createdAt: row.createdAt.toISOString(),
});

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_MAX ? `${flat.slice(0, EXCERPT_MAX - 1)}…` : flat;
};

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Drafted comments (spec §3, §9): the extension sends the posts it read; the server decides which are drafted (24
 * hours, languages, avoid and include words, already drafted, the daily caps, the free tier's 3 a day) and writes
 * each draft in one metered AI call with the person's customization, the post given as data (decision 033).
 */
export function createLinkedinDrafts({
  db,
  models,
  billing,
  users,
  settings: settingsService,
  log,
  timeoutMs,
  clock,
}: {
  db: Db;
  models: ModelsService;
  billing: BillingService;
  users: UserService;
  settings: LinkedinSettingsService;
  log: FastifyBaseLogger;
  timeoutMs: number;
  clock: () => Date;
}) {
  /** Which posts may be drafted, and why the others are not: the server's rules, before any AI call. */
  function choose(
    body: DraftRequest,
    settings: LinkedinSettings,
    keywords: engage.KeywordRow[],
    profiles: engage.ProfileRow[],
    existing: Map<string, q.DraftRow>,
    now: Date,
  ) {
    const activeKeywords = keywords.filter((k) => k.active);
    const activeProfiles = profiles.filter((p) => p.active);
    const pageKeyword = body.keyword
      ? (activeKeywords.find((k) => k.keyword.toLowerCase() === body.keyword!.toLowerCase()) ?? null)
      : null;
    const pageProfileUrl = body.profileUrl ? normalizeProfileUrl(body.profileUrl) : null;
    const pageProfile = pageProfileUrl ? (activeProfiles.find((p) => p.url === pageProfileUrl) ?? null) : null;

    const planned: Planned[] = [];
    const skipped: { urn: string; reason: SkipReason }[] = [];
    const known: q.DraftRow[] = [];
    const seen = new Set<string>();
    for (const post of body.posts) {
      const skip = (reason: SkipReason) => skipped.push({ urn: post.urn, reason });
      if (seen.has(post.urn)) {
        skip('duplicate');
        continue;
      }
      seen.add(post.urn);
      const prior = existing.get(post.urn);
      if (prior) {
        // Asked for by hand, a post already drafted answers with its draft (no second AI call).
        if (body.manual && prior.text !== q.CLAIM_TEXT) known.push(prior);
        else skip('duplicate');
        continue;
      }
      const author = post.authorUrl ? normalizeProfileUrl(post.authorUrl) : null;
      const profile =
        (post.source === 'profile' && pageProfile) ||
        (author ? activeProfiles.find((p) => p.url === author) : undefined) ||
        null;
      const keyword = pageKeyword ?? activeKeywords.find((k) => hasWord(post.text, k.keyword)) ?? null;
      if (!body.manual) {
        if (!keyword && !profile) {
          skip('noMatch');
          continue;
        }
        const posted = Date.parse(post.postedAt);
        if (!(posted >= now.getTime() - ENGAGE_POST_MAX_AGE_HOURS * HOUR)) {
          skip('tooOld');
          continue;
        }
        if (!languageAllowed(detectLanguages(post.text), settings.languages)) {
          skip('language');
          continue;
        }
        if (hasAny(post.text, [...(keyword?.avoid ?? []), ...settings.avoidWords])) {
          skip('avoided');
          continue;
        }
        const include = [...(keyword?.include ?? []), ...settings.includeWords];
        if (include.length && !hasAny(post.text, include)) {
          skip('noMatch');
          continue;
        }
      }
      planned.push({ post, keyword, profileUrl: profile?.url ?? null });
    }
    return { planned, skipped, known };
  }

  return {
    async draft(caller: Caller, body: DraftRequest) {
      if (body.manual && body.posts.length !== 1) throw new DomainError('BAD_REQUEST');
      const userId = caller.user.id;
      const now = clock();
      const day = localDate(now, caller.user.timezone);
      await q.tidy(db, userId, now, CLAIM_TTL_MS);
      const [settings, keywords, profiles, existingRows] = await Promise.all([
        settingsService.settingsOf(caller),
        engage.listKeywords(db, userId),
        engage.listProfiles(db, userId),
        q.existingUrns(
          db,
          userId,
          body.posts.map((p) => p.urn),
        ),
      ]);
      const existing = new Map(existingRows.map((r) => [r.postUrn, r]));
      const { planned, skipped, known } = choose(body, settings, keywords, profiles, existing, now);

      const made: q.DraftRow[] = [];
      if (planned.length) {
        const modelId = await models.served(userId, (await users.settings(caller)).model);
        const resolved = await models.resolve(userId, modelId);
        const use = {
          capability: 'linkedinDraft',
          tier: resolved.info.tier,
          keySource: resolved.keySource,
        } as const;
        let stopped: unknown = null;

        const draftOne = async ({ post, keyword, profileUrl }: Planned) => {
          const outcome = await billing.metered(
            caller,
            use,
            async (): Promise<{ row: q.DraftRow } | { skip: SkipReason }> => {
              // The caps and the one draft per post are decided under the person's lock, before the model is called.
              const held = await db.transaction(async (tx) => {
                await engage.lockPerson(tx, userId);
                if ((await q.countOn(tx, userId, day)) >= DRAFTS_PER_DAY_MAX) return 'cap' as const;
                const cap = settings.commentsPerKeywordPerDay;
                if (keyword && (await q.countForKeywordOn(tx, userId, keyword.id, day)) >= cap) return 'cap' as const;
                if (!keyword && profileUrl && (await q.countForProfileOn(tx, userId, profileUrl, day)) >= cap)
                  return 'cap' as const;
                const row = await q.claim(
                  tx,
                  userId,
                  {
                    postUrn: post.urn,
                    postUrl: post.url ?? null,
                    authorName: post.authorName,
                    postExcerpt: excerpt(post.text),
                    keywordId: keyword?.id ?? null,
                    keyword: keyword?.keyword ?? null,
                    profileUrl,
                    day,
                  },
                  clock(),
                );
                return row ?? ('duplicate' as const);
              });
              if (typeof held === 'string') return { skip: held };
              try {
                const detected = detectLanguages(post.text);
                const avoid = [...(keyword?.avoid ?? []), ...settings.avoidWords];
                const include = [...(keyword?.include ?? []), ...settings.includeWords];
                const { text } = await generateText({
                  model: resolved.model,
                  system: draftSystemPrompt(
                    settings,
                    { avoid, include },
                    detected?.length === 1 ? languageName(detected[0]!) : null,
                  ),
                  prompt: postAsData(post),
                  temperature: temperatureOf(settings),
                  maxRetries: 1,
                  abortSignal: AbortSignal.timeout(timeoutMs),
                });
                const instructions = hasInstructions(post.text);
                const cleaned = cleanDraft(text, post.text, {
                  allowEmojis: settings.allowEmojis,
                  allowHashtags: settings.allowHashtags,
                  avoid,
                  max: DRAFT_TEXT_MAX,
                  keepPostMentions: !instructions,
                });
                if (!cleaned.text) throw new Error('empty answer');
                const flags: DraftFlag[] = [
                  ...(instructions ? (['instructionsInPost'] as const) : []),
                  ...cleaned.flags,
                ];
                return { row: await q.fill(db, held.id, cleaned.text, flags, clock()) };
              } catch (error) {
                await q.release(db, held.id);
                log.warn({ provider: describeError(error), feature: 'linkedinDraft' }, 'a LinkedIn draft failed');
                throw new DomainError('PROVIDER_ERROR');
              }
            },
            { produced: (result) => 'row' in result },
          );
          if ('row' in outcome) made.push(outcome.row);
          else skipped.push({ urn: post.urn, reason: outcome.skip });
        };

        // Out of daily uses or credits: this post and the rest are over a cap; after a provider failure (or any
        // other), they failed. Every post asked about is answered, drafted or skipped with its reason.
        const reasonOf = (error: unknown): SkipReason =>
          error instanceof DomainError && error.code !== 'PROVIDER_ERROR' ? 'cap' : 'failed';
        await eachLimited(planned, PARALLEL, async (p) => {
          if (stopped) {
            skipped.push({ urn: p.post.urn, reason: reasonOf(stopped) });
            return;
          }
          try {
            await draftOne(p);
          } catch (error) {
            stopped ??= error;
            skipped.push({ urn: p.post.urn, reason: reasonOf(error) });
          }
        });
        // Nothing drafted: the reason is the answer (the free tier's daily limit, credits, the provider).
        if (stopped && !made.length) throw stopped;

        // Drafts were prepared for these keywords and profiles: their daily run is done, the next in 24 hours.
        const ranKeywords = [...new Set(made.flatMap((r) => (r.keywordId ? [r.keywordId] : [])))];
        const ranProfiles = [...new Set(made.flatMap((r) => (r.profileUrl ? [r.profileUrl] : [])))];
        if (ranKeywords.length || ranProfiles.length) {
          const at = clock();
          await db.transaction(async (tx) => {
            await engage.lockPerson(tx, userId);
            await engage.markKeywordsRun(tx, userId, ranKeywords, at);
            await engage.markProfilesRun(tx, userId, ranProfiles, at);
            await engage.completeDailyRuns(
              tx,
              userId,
              ranKeywords,
              new Date(at.getTime() + ENGAGE_EVERY_HOURS * HOUR),
              at,
            );
          });
        }
      }

      const gate = (await billing.usage(caller)).gates.find((g) => g.capability === 'linkedinDraft');
      const order = new Map(body.posts.map((p, i) => [p.urn, i]));
      const byPost = (a: { postUrn: string }, b: { postUrn: string }) =>
        (order.get(a.postUrn) ?? 0) - (order.get(b.postUrn) ?? 0);
      return {
        drafts: [...known, ...made].sort(byPost).map(toDraft),
        skipped: skipped.sort((a, b) => (order.get(a.urn) ?? 0) - (order.get(b.urn) ?? 0)),
        remainingToday: gate ? gate.left : null,
      };
    },

    async list(caller: Caller, filter: { status?: DraftStatus | undefined; postUrn?: string | undefined }) {
      await q.tidy(db, caller.user.id, clock(), CLAIM_TTL_MS);
      return { drafts: (await q.list(db, caller.user.id, filter, LIST_MAX)).map(toDraft) };
    },

    async update(caller: Caller, id: string, change: { text?: string | undefined; status?: DraftStatus | undefined }) {
      const row = await q.update(
        db,
        caller.user.id,
        id,
        {
          ...(change.text !== undefined ? { text: change.text } : {}),
          ...(change.status !== undefined ? { status: change.status } : {}),
        },
        clock(),
      );
      if (!row) throw new NotFoundError('draft');
      return toDraft(row);
    },
  };
}

export type LinkedinDraftsService = ReturnType<typeof createLinkedinDrafts>;
