import { z } from 'zod';
import { WRITING_LANGUAGES } from './settings-values.js';
import { httpUrl, instant, line, text } from './text.js';

/**
 * The LinkedIn assistant (spec §1, §2 /linkedin-auth-redirect and /automation/*, §3 Automation, LinkedIn settings and
 * stats, §4, §5 comma-separated lists, §6 Pro/Plus gating, §7 Automations, §9 24-hour rules, comment lengths, 90 days).
 *
 * Parley finds posts, drafts comments and keeps stats; the person comments with LinkedIn's own button. The only thing
 * published for them is their own scheduled post, through LinkedIn's official Posts API. Every row belongs to one
 * person; another person's id is answered 404.
 */

// ---------------------------------------------------------------------------------------------------------------
// Constants (spec §9)

/** Comment lengths and their word counts (spec §9: tiny about 10 words, short about 5, small about 25, medium about 50). */
export const COMMENT_LENGTHS = ['tiny', 'short', 'small', 'medium'] as const;
export type CommentLength = (typeof COMMENT_LENGTHS)[number];
export const COMMENT_LENGTH_WORDS: Record<CommentLength, number> = { tiny: 10, short: 5, small: 25, medium: 50 };

/** Creativity from Conservative to Wild, and the model temperature each maps to. */
export const CREATIVITY_LEVELS = ['conservative', 'balanced', 'creative', 'wild'] as const;
export type CreativityLevel = (typeof CREATIVITY_LEVELS)[number];
export const CREATIVITY_TEMPERATURE: Record<CreativityLevel, number> = {
  conservative: 0.2,
  balanced: 0.6,
  creative: 0.9,
  wild: 1.2,
};

/** What kind of comment a draft is. */
export const COMMENT_TYPES = [
  'insightful',
  'supportive',
  'question',
  'congratulate',
  'agree',
  'disagree',
  'funny',
] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

/** Engagement reads posts from the last 24 hours, prepares drafts every 24 hours (spec §9). */
export const ENGAGE_POST_MAX_AGE_HOURS = 24;
export const ENGAGE_EVERY_HOURS = 24;
/** Profile viewers are counted over the last 90 days (spec §9). */
export const PROFILE_VIEWERS_DAYS = 90;

export const KEYWORDS_MAX = 50;
export const PROFILES_MAX = 100;
export const KEYWORD_MAX = 100;
/** Words in an avoid or include list (comma separated in the pages, spec §5). */
export const WORD_LIST_MAX = 30;
export const WORD_MAX = 60;
export const COMMENTS_PER_KEYWORD_MAX = 20;
export const DEFAULT_COMMENTS_PER_KEYWORD = 3;
export const CUSTOM_PROMPTS_MAX = 10;
export const CUSTOM_PROMPT_LABEL_MAX = 60;
export const CUSTOM_PROMPT_MAX = 1_000;
/** Posts the extension sends at once to be matched and drafted. */
export const CANDIDATE_POSTS_MAX = 20;
export const CANDIDATE_TEXT_MAX = 5_000;
export const DRAFT_TEXT_MAX = 1_250;
/** LinkedIn's own limit on a post's commentary. */
export const POST_TEXT_MAX = 3_000;
/** How far ahead a post may be scheduled, in days. */
export const POST_SCHEDULE_MAX_DAYS = 365;
export const POST_IDEA_MAX = 1_000;
export const POSTS_SCHEDULED_MAX = 200;
/**
 * Drafts made for a person in a day (their time zone), whatever the plan and whatever becomes of them (accepted,
 * edited, dismissed): keeps engagement human.
 */
export const DRAFTS_PER_DAY_MAX = 50;

export const AUTOMATION_STATUSES = ['Pending', 'Completed', 'Error'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];
/** Spec §3: kinds reply, AI comment, custom reply; and the person's own scheduled post. */
export const AUTOMATION_KINDS = ['post', 'aiComment', 'reply', 'customReply'] as const;
export type AutomationKind = (typeof AUTOMATION_KINDS)[number];
export const POST_REPEATS = ['none', 'daily', 'weekly'] as const;
export type PostRepeat = (typeof POST_REPEATS)[number];
export const POST_VISIBILITIES = ['PUBLIC', 'CONNECTIONS'] as const;

/** The stats of spec §3, in the order the pages show them. */
export const LINKEDIN_METRICS = [
  'followers',
  'connections',
  'posts',
  'impressions',
  'likes',
  'comments',
  'profileViewers',
  'ssiScore',
] as const;
export type LinkedinMetric = (typeof LINKEDIN_METRICS)[number];
export const STATS_DAYS_MAX = 365;
/** The first day a reading may be for (LinkedIn's exports cover at most the last 365 days). */
export const STATS_FIRST_DAY = '2000-01-01';
/** Days before today an imported file's readings are kept for: LinkedIn's exports cover at most 365. */
export const STATS_IMPORT_DAYS = 400;
/** An analytics export file (CSV or XLSX from LinkedIn). */
export const STATS_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** The global loader's messages (spec §2), rotating every 2 s. */
export const LOADER_KINDS = [
  'general',
  'saving',
  'settings',
  'automation',
  'connect',
  'getPosts',
  'getPostsByKeyword',
  'scrapeProfiles',
] as const;
export const LOADER_ROTATE_MS = 2_000;

/** Splits a comma-separated list (spec §5) into trimmed, distinct, non-empty words. */
export const splitCommaList = (value: string): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of value.split(',')) {
    const word = raw.replace(/\s+/g, ' ').trim();
    if (word === '' || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    out.push(word);
  }
  return out;
};

// ---------------------------------------------------------------------------------------------------------------
// Connection (OAuth 2.0 authorization code with OpenID Connect)

export const LINKEDIN_CONNECTION_STATES = ['none', 'connected', 'loginNeeded'] as const;
export type LinkedinConnectionState = (typeof LINKEDIN_CONNECTION_STATES)[number];

export const linkedinConnectionSchema = z.object({
  /** Whether this server has LinkedIn's client id and secret (the pages explain the setup otherwise). */
  configured: z.boolean(),
  state: z.enum(LINKEDIN_CONNECTION_STATES),
  name: z.string().nullable(),
  email: z.string().nullable(),
  picture: z.string().nullable(),
  /** When the access token stops working (ISO); "login needed" after it. */
  expiresAt: z.string().nullable(),
  /** Whether the token may publish posts (scope w_member_social). */
  canPost: z.boolean(),
});
export type LinkedinConnection = z.infer<typeof linkedinConnectionSchema>;

/** Starts the flow: the URL to send the browser to (its `state` is single-use, bound to the caller, 10 minutes). */
export const linkedinConnectSchema = z.object({ url: z.string() });
export const linkedinCallbackInputSchema = z
  .object({ code: z.string().min(1).max(2_000), state: z.string().min(1).max(200) })
  .strict();
export const LINKEDIN_STATE_TTL_MS = 10 * 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Settings and AI customization (spec §3 LinkedIn settings)

const word = line().trim().min(1).max(WORD_MAX);
export const wordListSchema = z.array(word).max(WORD_LIST_MAX).default([]);

export const customPromptSchema = z
  .object({
    label: line().trim().min(1).max(CUSTOM_PROMPT_LABEL_MAX),
    prompt: text().trim().min(1).max(CUSTOM_PROMPT_MAX),
  })
  .strict();
export type CustomPrompt = z.infer<typeof customPromptSchema>;

export const linkedinSettingsSchema = z
  .object({
    /** Languages of the posts to engage with (writing languages); empty: any. */
    languages: z.array(z.enum(WRITING_LANGUAGES)).max(WRITING_LANGUAGES.length).default([]),
    commentsPerKeywordPerDay: z
      .number()
      .int()
      .min(1)
      .max(COMMENTS_PER_KEYWORD_MAX)
      .default(DEFAULT_COMMENTS_PER_KEYWORD),
    commentType: z.enum(COMMENT_TYPES).default('insightful'),
    customPrompts: z.array(customPromptSchema).max(CUSTOM_PROMPTS_MAX).default([]),
    avoidWords: wordListSchema,
    includeWords: wordListSchema,
    allowEmojis: z.boolean().default(false),
    allowHashtags: z.boolean().default(false),
    commentLength: z.enum(COMMENT_LENGTHS).default('small'),
    creativity: z.enum(CREATIVITY_LEVELS).default('balanced'),
    /** Drafts prepared every 24 hours without asking (Pro or Plus); never posted. */
    autoEngage: z.boolean().default(false),
    /** Show drafted comments on LinkedIn's pages (the review list in the page). */
    displayAiComments: z.boolean().default(true),
  })
  .strict();
export type LinkedinSettings = z.infer<typeof linkedinSettingsSchema>;
export const DEFAULT_LINKEDIN_SETTINGS: LinkedinSettings = linkedinSettingsSchema.parse({});

/** Every field optional and without its default, so that a change leaves out what it does not name. */
const changeOf = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object(
      Object.fromEntries(
        Object.entries(shape).map(([key, field]) => [
          key,
          (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
        ]),
      ),
    )
    .strict() as unknown as z.ZodObject<{
    [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer I extends z.ZodType> ? I : T[K]>;
  }>;
/** A change: any subset of the settings (what is left out stays as it is). */
export const linkedinSettingsUpdateSchema = changeOf(linkedinSettingsSchema.shape);

// ---------------------------------------------------------------------------------------------------------------
// Watch lists

export const keywordInputSchema = z
  .object({
    keyword: line().trim().min(1).max(KEYWORD_MAX),
    /** Posts with any of these words are skipped; avoiding is not guaranteed (spec §5). */
    avoid: wordListSchema,
    /** Posts must contain one of these words, when given; including is not guaranteed. */
    include: wordListSchema,
    active: z.boolean().default(true),
  })
  .strict();
export const keywordSchema = z.object({
  id: z.uuid(),
  keyword: z.string(),
  avoid: z.array(z.string()),
  include: z.array(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
  /** When drafts for it were last prepared (null: never). */
  lastRunAt: z.string().nullable(),
  draftsToday: z.number().int(),
  /** Active and not run in the last 24 hours (ENGAGE_EVERY_HOURS): the extension prepares its drafts when it can. */
  due: z.boolean(),
});
export type Keyword = z.infer<typeof keywordSchema>;
/** A change of a keyword: any subset of its fields. */
export const keywordUpdateSchema = changeOf(keywordInputSchema.shape);
export const keywordsSchema = z.object({ keywords: z.array(keywordSchema) });

/** A followed profile: https://www.linkedin.com/in/<slug>/ (or /company/<slug>/), normalized. */
export const LINKEDIN_PROFILE_URL = /^https:\/\/(www\.)?linkedin\.com\/(in|company)\/[^/?#\s]{1,100}\/?$/i;
export const profileInputSchema = z
  .object({
    url: httpUrl(300).refine((u) => LINKEDIN_PROFILE_URL.test(u), { message: 'not a LinkedIn profile' }),
    name: line().trim().max(120).optional(),
    active: z.boolean().default(true),
  })
  .strict();
export const followedProfileSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  name: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  lastRunAt: z.string().nullable(),
  draftsToday: z.number().int(),
  due: z.boolean(),
});
export type FollowedProfile = z.infer<typeof followedProfileSchema>;
export const followedProfileUpdateSchema = changeOf(profileInputSchema.shape);
export const followedProfilesSchema = z.object({ profiles: z.array(followedProfileSchema) });

// ---------------------------------------------------------------------------------------------------------------
// Drafted comments

/** LinkedIn's id of a post (urn:li:activity:123…): the only form a post's id takes here, in a body or a query. */
export const LINKEDIN_POST_URN = /^urn:li:(activity|share|ugcPost):\d{1,30}$/;

/** A post the extension read on LinkedIn (feed, keyword search, a followed profile's activity). Data, never orders. */
export const candidatePostSchema = z
  .object({
    urn: z.string().regex(LINKEDIN_POST_URN),
    url: httpUrl(500).optional(),
    authorName: line().trim().max(200).default(''),
    authorUrl: httpUrl(300).optional(),
    text: text().max(CANDIDATE_TEXT_MAX),
    /** When it was posted (ISO), as read from the page; posts older than 24 hours are skipped. */
    postedAt: instant(),
    /** Where it was found. */
    source: z.enum(['feed', 'search', 'profile']),
  })
  .strict();
export type CandidatePost = z.infer<typeof candidatePostSchema>;

export const draftRequestSchema = z
  .object({
    posts: z.array(candidatePostSchema).min(1).max(CANDIDATE_POSTS_MAX),
    /** The search keyword or followed profile URL the page shows, when any. */
    keyword: line().trim().max(KEYWORD_MAX).optional(),
    profileUrl: httpUrl(300).optional(),
    /** Draft this one post now, asked by the person ("Draft a comment" on a post), even if no keyword matches. */
    manual: z.boolean().default(false),
  })
  .strict();

export const DRAFT_STATUSES = ['pending', 'accepted', 'dismissed'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];
/** Why a draft is flagged for review: the post asked for something, or the draft had links, contacts… removed. */
export const DRAFT_FLAGS = ['instructionsInPost', 'linkRemoved', 'contactRemoved', 'avoidWord'] as const;

export const draftSchema = z.object({
  id: z.uuid(),
  postUrn: z.string(),
  postUrl: z.string().nullable(),
  authorName: z.string(),
  /** The beginning of the post, for the review list. */
  postExcerpt: z.string(),
  keyword: z.string().nullable(),
  profileUrl: z.string().nullable(),
  text: z.string(),
  status: z.enum(DRAFT_STATUSES),
  flags: z.array(z.enum(DRAFT_FLAGS)),
  createdAt: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

/**
 * Why a post was not drafted: not matching, too old, another language, an avoided word, already drafted, over a cap,
 * or the AI call failed (the posts after a failure in the same request are not tried).
 */
export const DRAFT_SKIP_REASONS = ['noMatch', 'tooOld', 'language', 'avoided', 'duplicate', 'cap', 'failed'] as const;
export const draftResultSchema = z.object({
  drafts: z.array(draftSchema),
  /** Posts not drafted, and why. */
  skipped: z.array(z.object({ urn: z.string(), reason: z.enum(DRAFT_SKIP_REASONS) })),
  /** Drafts left today on a free-tier plan (null: no daily limit). */
  remainingToday: z.number().int().nullable(),
});
export type DraftResult = z.infer<typeof draftResultSchema>;
export const draftUpdateSchema = z
  .object({ text: text().trim().min(1).max(DRAFT_TEXT_MAX).optional(), status: z.enum(DRAFT_STATUSES).optional() })
  .strict();
export const draftsQuerySchema = z
  .object({ status: z.enum(DRAFT_STATUSES).optional(), postUrn: z.string().regex(LINKEDIN_POST_URN).optional() })
  .strict();
export const draftsSchema = z.object({ drafts: z.array(draftSchema) });

// ---------------------------------------------------------------------------------------------------------------
// Post automation and the automations list (spec §7 /api/mongo/automation/*)

export const postInputSchema = z
  .object({
    text: text().trim().min(1).max(POST_TEXT_MAX),
    /** Local date and time in `timezone` (YYYY-MM-DDTHH:mm). */
    scheduledFor: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/),
    timezone: z.string().min(1).max(64),
    repeat: z.enum(POST_REPEATS).default('none'),
    visibility: z.enum(POST_VISIBILITIES).default('PUBLIC'),
  })
  .strict();
export type PostInput = z.input<typeof postInputSchema>;
export const postIdeaSchema = z
  .object({
    idea: text().trim().min(1).max(POST_IDEA_MAX),
    language: z.enum(WRITING_LANGUAGES).optional(),
    tone: z.string().max(40).optional(),
  })
  .strict();

export const automationSchema = z.object({
  automationId: z.uuid(),
  kind: z.enum(AUTOMATION_KINDS),
  status: z.enum(AUTOMATION_STATUSES),
  /** Runs again every day (a repeating post, an auto-engage run); false once disabled. */
  dailyRun: z.boolean(),
  text: z.string().nullable(),
  keyword: z.string().nullable(),
  /** The next time it runs (ISO), null when it will not. */
  runAt: z.string().nullable(),
  timezone: z.string().nullable(),
  repeat: z.enum(POST_REPEATS),
  visibility: z.enum(POST_VISIBILITIES),
  /** LinkedIn's id of the published post, and its address. */
  postUrn: z.string().nullable(),
  postUrl: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** An error code (localized by the client) when status is Error. */
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type Automation = z.infer<typeof automationSchema>;
export const automationsSchema = z.object({ automations: z.array(automationSchema) });

/** The spec's calls name `userId` in the query: accepted, but the caller is who counts (another id → 404). */
export const automationQuerySchema = z
  .object({ automationId: z.uuid(), userId: z.string().max(64).optional() })
  .strict();
export const automationStatusQuerySchema = automationQuerySchema
  .extend({ automationStatus: z.enum(AUTOMATION_STATUSES) })
  .strict();
export const automationsQuerySchema = z.object({ userId: z.string().max(64).optional() }).strict();
export const adminAutomationQuerySchema = z.object({ automationId: z.uuid() }).strict();

// ---------------------------------------------------------------------------------------------------------------
// Stats (spec §3)

/**
 * A day of a reading: from STATS_FIRST_DAY to tomorrow in UTC (somewhere it is already today); the server then
 * refuses a day after the person's own today. No year 0 or 1700 reaches the database.
 */
const tomorrowUtc = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const statDay = z.iso.date().refine((day) => day >= STATS_FIRST_DAY && day <= tomorrowUtc());
export const statReadingSchema = z
  .object({
    metric: z.enum(LINKEDIN_METRICS),
    value: z.number().finite().min(0).max(1e12),
    /** The day it is for (YYYY-MM-DD), from 2000 to the person's today; today when left out. */
    day: statDay.optional(),
  })
  .strict();
export const statReadingsSchema = z
  .object({
    readings: z
      .array(statReadingSchema)
      .min(1)
      .max(LINKEDIN_METRICS.length * 400),
  })
  .strict();
export const statsQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(STATS_DAYS_MAX).default(90) });
export const statPointSchema = z.object({ day: z.string(), value: z.number(), source: z.enum(['page', 'import']) });
export const statsSchema = z.object({
  series: z.record(z.enum(LINKEDIN_METRICS), z.array(statPointSchema)),
  /** The latest value of each metric, and its day. */
  latest: z.record(z.enum(LINKEDIN_METRICS), z.object({ day: z.string(), value: z.number() }).nullable()),
});
export type LinkedinStats = z.infer<typeof statsSchema>;
/** What an import could not use: `followersWithoutTotal`, daily new followers in a file without its total line. */
export const STATS_IMPORT_NOTES = ['followersWithoutTotal'] as const;
export const statsImportResultSchema = z.object({
  imported: z.number().int(),
  days: z.number().int(),
  notes: z.array(z.enum(STATS_IMPORT_NOTES)).default([]),
});
export const statsSavedSchema = z.object({ saved: z.number().int() });
