import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defaultCatalogue, readCatalogue, type PlanCatalogue } from './lib/plan-catalogue.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** `TRUST_PROXY`: false (default), true, a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): boolean | number | string[] => {
    if (v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') return true;
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.every((s) => /^[0-9a-fA-F.:/]+$/.test(s) || s === 'loopback' || s === 'linklocal' || s === 'uniquelocal'))
      return list;
    ctx.addIssue({ code: 'custom', message: 'expected true, false, a hop count, or a list of addresses/CIDRs' });
    return z.NEVER;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  HELP_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, colons, dashes and underscores')
    .default('parley:'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  TRUST_PROXY: trustProxy.default(false),
  CORS_ORIGINS: z.string().default(''),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  EXTENSION_DIST: z.string().default(path.join(repoRoot, 'apps/extension/.output/chrome-mv3')),
  EXTENSION_STORE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(900),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(100000).default(30),
  RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).max(100000).default(10),
  ARGON2_MEMORY_KIB: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024)
    .default(19456),
  SERVE_WEB: bool.optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().min(1).optional(),
  DEEPSEEK_API_KEY: z.string().min(1).optional(),
  OPENAI_COMPATIBLE_BASE_URL: z.url().optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().min(1).optional(),
  OPENAI_COMPATIBLE_MODEL: z.string().min(1).default('llama3.1'),
  TRANSCRIBE_MODEL: z.string().min(1).default('whisper-1'),
  BFL_API_KEY: z.string().min(1).optional(),
  BFL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  FAL_API_KEY: z.string().min(1).optional(),
  FAL_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  REPLICATE_API_TOKEN: z.string().min(1).optional(),
  REPLICATE_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  OPENAI_COMPATIBLE_IMAGES_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  OPENAI_COMPATIBLE_IMAGES_API_KEY: z.string().min(1).optional(),
  OPENAI_COMPATIBLE_IMAGES_MODEL: z.string().min(1).default('stable-diffusion'),
  ALLOW_PRIVATE_BASE_URLS: bool.default(false),
  FETCH_ALLOW_HOSTS: z.string().default(''),
  YOUTUBE_BASE_URL: z.url().default('https://www.youtube.com'),
  SEARCH_PROVIDER: z.enum(['searxng', 'brave', 'tavily']).optional(),
  SEARCH_URL: z.url().optional(),
  SEARCH_API_KEY: z.string().min(1).optional(),
  AI_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(600).default(120),
  AI_RATE_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(30),
  AI_RATE_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(120),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  STRIPE_TRIAL_DAYS: z.coerce.number().int().min(0).max(730).default(0),
  STUDENT_EMAIL_DOMAINS: z.string().default(''),
  PAYMENT_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
  CREDIT_RENEWAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  PLANS_FILE: z.string().optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  LINKEDIN_CLIENT_ID: z.string().min(1).optional(),
  LINKEDIN_CLIENT_SECRET: z.string().min(1).optional(),
  LINKEDIN_AUTH_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://www.linkedin.com'),
  LINKEDIN_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://api.linkedin.com'),
  LINKEDIN_API_VERSION: z
    .string()
    .regex(/^\d{6}$/, 'a version as YYYYMM (202510)')
    .optional(),
  LINKEDIN_SCHEDULER: bool.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3-63 lowercase letters, digits, dots, dashes)')
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9-]+\/)+$/, 'folders of letters, digits and dashes, ending with a slash (parley/)')
    .optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  /** The help pages (FAQ) linked from the settings menu; no link when unset. */
  helpUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Before every Redis key: several deployments can share one Redis. */
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string | undefined; jwksUrl: string };
  trustProxy: boolean | number | string[];
  corsOrigins: string[];
  bodyLimit: number;
  /** Longest a request (headers and body) may take to arrive; the answer is not bounded by it. */
  requestTimeoutMs: number;
  logLevel: string;
  /** auto: readable lines in a terminal, JSON otherwise (log collectors). */
  logFormat: 'auto' | 'json' | 'pretty';
  webDist: string;
  serveWeb: boolean;
  /** The built extension offered at /install (a folder with manifest.json), and its store page if it has one. */
  extension: { dist: string; storeUrl: string | undefined };
  sessionTtlDays: number;
  rateLimits: {
    windowSeconds: number;
    perIp: number;
    perEmail: number;
    loginMaxFailures: number;
    /** AI calls (chat turns, writing helpers, transcription) per minute, per person and per client address. */
    aiPerUser: number;
    aiPerIp: number;
  };
  argon2MemoryKib: number;
  /** Encrypts users' own API keys (AES-256-GCM). Generated under DATA_DIR on first start when not set. */
  appSecret: string | undefined;
  ai: {
    openai: { apiKey: string | undefined; baseUrl: string | undefined };
    anthropic: { apiKey: string | undefined };
    google: { apiKey: string | undefined };
    deepseek: { apiKey: string | undefined };
    openaiCompatible: { baseUrl: string | undefined; apiKey: string | undefined; model: string };
    transcribeModel: string;
    timeoutMs: number;
    /** Users' own base URLs may point at private/loopback addresses (e.g. a local Ollama) only when this is on. */
    allowPrivateBaseUrls: boolean;
  };
  /**
   * Image providers (spec §1): the server's keys, each sent only to its base URL (the provider's public API when
   * unset). A provider without a key (the OpenAI-compatible server: without a base URL) serves nobody on the server's
   * account; people's own keys still can.
   */
  images: {
    openai: { apiKey: string | undefined; baseUrl: string | undefined };
    blackForestLabs: { apiKey: string | undefined; baseUrl: string | undefined };
    fal: { apiKey: string | undefined; baseUrl: string | undefined };
    replicate: { apiKey: string | undefined; baseUrl: string | undefined };
    openaiCompatible: { baseUrl: string | undefined; apiKey: string | undefined; model: string };
    /** Longest one provider call may take, its polling included (AI_TIMEOUT_SECONDS). */
    timeoutMs: number;
    /** People's own base URLs may reach private addresses (ALLOW_PRIVATE_BASE_URLS). */
    allowPrivateBaseUrls: boolean;
  };
  fetch: { allowHosts: string[]; youtubeBaseUrl: string };
  search: { provider: 'searxng' | 'brave' | 'tavily' | undefined; url: string | undefined; apiKey: string | undefined };
  payments: {
    /** Unset: plans are shown but not sold; a site admin assigns them. */
    stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
    /** 0: no free trial. */
    trialDays: number;
    /** Academic domains for student pricing (`.edu` matches any address under it; `uni.example` that domain). */
    studentDomains: string[];
    /** Days a plan stays after a failed payment before the wallet returns to its base plan. */
    graceDays: number;
    /** How often credits due (a day's at each person's midnight, a month's allowance) are renewed. */
    renewalEveryMs: number;
    /** Prices and allowances: the defaults of the contract, changed by PLANS_FILE. */
    catalogue: PlanCatalogue;
  };
  /**
   * LinkedIn's official APIs (sign-in, posting the person's scheduled posts). Without a client id and secret the
   * pages say how to set it up. `scheduler`: whether this process publishes due posts (off under NODE_ENV=test).
   */
  linkedin: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    authUrl: string;
    apiUrl: string;
    apiVersion: string | undefined;
    scheduler: boolean;
  };
  /** Files (attachments, images) in an S3-compatible store; under DATA_DIR/files when unset. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
        prefix: string | undefined;
      }
    | undefined;
};

/** S3 storage needs these together; any S3_ variable set asks for S3 storage. */
const S3_REQUIRED = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_VARIABLES = [...S3_REQUIRED, 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once. Every problem is listed, not just the first. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const e = result.data;
  const problems: string[] = [];
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (events are verified with it)');
  }
  const s3Set = S3_VARIABLES.filter((name) => e[name] !== undefined);
  const s3Missing = S3_REQUIRED.filter((name) => e[name] === undefined);
  if (s3Set.length && s3Missing.length) {
    problems.push(
      `${s3Missing.join(', ')}: required for S3 storage (${s3Set.join(', ')} set); ` +
        `set ${S3_REQUIRED.join(', ')} together, or none of the S3_ variables for the local folder`,
    );
  }
  if (Boolean(e.LINKEDIN_CLIENT_ID) !== Boolean(e.LINKEDIN_CLIENT_SECRET)) {
    problems.push('LINKEDIN_CLIENT_ID, LINKEDIN_CLIENT_SECRET: set both (from the LinkedIn app), or neither');
  }
  let catalogue: PlanCatalogue = defaultCatalogue();
  if (e.PLANS_FILE) {
    try {
      catalogue = readCatalogue(e.PLANS_FILE);
    } catch (error) {
      problems.push(`PLANS_FILE: ${(error as Error).message}`);
    }
  }
  // Each an origin as a browser sends it (scheme, host, port when not the default; no path, no slash at the end):
  // anything else would never match, and every call from that page would be refused without a word.
  const corsOrigins = e.CORS_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of corsOrigins) {
    const origin = URL.canParse(entry) ? new URL(entry).origin : 'null';
    if (origin === entry && origin !== 'null') continue;
    problems.push(
      `CORS_ORIGINS: "${entry}" is not an origin as browsers send it` +
        (origin === 'null' ? ' (e.g. https://app.example.com)' : `; write ${origin}`),
    );
  }
  if (problems.length) throw new ConfigError(problems);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const publicOrigin = new URL(publicUrl).origin;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    helpUrl: e.HELP_URL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL },
    trustProxy: e.TRUST_PROXY,
    corsOrigins: corsOrigins.length ? corsOrigins : [publicOrigin],
    bodyLimit: e.BODY_LIMIT_BYTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    webDist: path.resolve(e.WEB_DIST),
    serveWeb: e.SERVE_WEB ?? e.NODE_ENV === 'production',
    extension: { dist: path.resolve(e.EXTENSION_DIST), storeUrl: e.EXTENSION_STORE_URL },
    sessionTtlDays: e.SESSION_TTL_DAYS,
    rateLimits: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      perIp: e.RATE_LIMIT_PER_IP,
      perEmail: e.RATE_LIMIT_PER_EMAIL,
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      aiPerUser: e.AI_RATE_PER_USER,
      aiPerIp: e.AI_RATE_PER_IP,
    },
    argon2MemoryKib: e.ARGON2_MEMORY_KIB,
    appSecret: e.APP_SECRET,
    ai: {
      openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
      anthropic: { apiKey: e.ANTHROPIC_API_KEY },
      google: { apiKey: e.GOOGLE_GENERATIVE_AI_API_KEY },
      deepseek: { apiKey: e.DEEPSEEK_API_KEY },
      openaiCompatible: {
        baseUrl: e.OPENAI_COMPATIBLE_BASE_URL,
        apiKey: e.OPENAI_COMPATIBLE_API_KEY,
        model: e.OPENAI_COMPATIBLE_MODEL,
      },
      transcribeModel: e.TRANSCRIBE_MODEL,
      timeoutMs: e.AI_TIMEOUT_SECONDS * 1000,
      allowPrivateBaseUrls: e.ALLOW_PRIVATE_BASE_URLS,
    },
    images: {
      openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
      blackForestLabs: { apiKey: e.BFL_API_KEY, baseUrl: e.BFL_BASE_URL },
      fal: { apiKey: e.FAL_API_KEY, baseUrl: e.FAL_BASE_URL },
      replicate: { apiKey: e.REPLICATE_API_TOKEN, baseUrl: e.REPLICATE_BASE_URL },
      openaiCompatible: {
        baseUrl: e.OPENAI_COMPATIBLE_IMAGES_BASE_URL,
        apiKey: e.OPENAI_COMPATIBLE_IMAGES_API_KEY,
        model: e.OPENAI_COMPATIBLE_IMAGES_MODEL,
      },
      timeoutMs: e.AI_TIMEOUT_SECONDS * 1000,
      allowPrivateBaseUrls: e.ALLOW_PRIVATE_BASE_URLS,
    },
    fetch: {
      allowHosts: e.FETCH_ALLOW_HOSTS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
      youtubeBaseUrl: e.YOUTUBE_BASE_URL.replace(/\/+$/, ''),
    },
    search: { provider: e.SEARCH_PROVIDER, url: e.SEARCH_URL, apiKey: e.SEARCH_API_KEY },
    payments: {
      stripe: e.STRIPE_SECRET_KEY
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiUrl: e.STRIPE_API_URL }
        : undefined,
      trialDays: e.STRIPE_TRIAL_DAYS,
      studentDomains: e.STUDENT_EMAIL_DOMAINS.split(',')
        .map((s) => s.trim().toLowerCase().replace(/^\*/, ''))
        .filter(Boolean),
      graceDays: e.PAYMENT_GRACE_DAYS,
      renewalEveryMs: e.CREDIT_RENEWAL_SECONDS * 1000,
      catalogue,
    },
    linkedin: {
      clientId: e.LINKEDIN_CLIENT_ID,
      clientSecret: e.LINKEDIN_CLIENT_SECRET,
      authUrl: e.LINKEDIN_AUTH_URL.replace(/\/+$/, ''),
      apiUrl: e.LINKEDIN_API_URL.replace(/\/+$/, ''),
      apiVersion: e.LINKEDIN_API_VERSION,
      scheduler: e.LINKEDIN_SCHEDULER ?? e.NODE_ENV !== 'test',
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          // Most S3-compatible servers (MinIO, s3rver) want the bucket in the path; AWS itself, in the host name.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
          prefix: e.S3_PREFIX,
        }
      : undefined,
  };
}
