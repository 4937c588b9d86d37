import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from '@fastify/type-provider-zod';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createPasswordHasher, type PasswordHasher } from './lib/passwords.js';
import { createMemoryStore, createRedisStore, type RateLimitStore } from './lib/rate-limit.js';
import { defineRoute } from './lib/route.js';
import multipart from '@fastify/multipart';
import { createSecretBox, resolveAppSecret } from './lib/secret-box.js';
import {
  createAuthService,
  createRequireAuth,
  createStartAuth,
  createUserService,
  registerAuthRoutes,
} from './modules/auth/index.js';
import { createCreditsService } from './modules/billing/index.js';
import {
  createChatService,
  createKeysService,
  createWritingService,
  registerChatRoutes,
  registerWritingRoutes,
  type ChatTools,
} from './modules/chat/index.js';
import { createChatTools } from './modules/chat/tools.js';
import { createModelRegistry } from './providers/ai/registry.js';
import { createLocalStorage, type Storage } from './providers/storage/index.js';
import { registerErrorHandler, UPLOAD_LIMITS } from './plugins/error-handler.js';
import { registerRequestContext } from './plugins/request-context.js';
import { registerWeb } from './plugins/web.js';
import { createGoogleVerifier, type GoogleVerifier } from './providers/google.js';
import { createFileMailer, createSmtpMailer, type Mailer } from './providers/mail/index.js';

export type AppDeps = {
  config: Config;
  database: Database;
  /** Overrides for outside services; by default they are built from config. */
  mailer?: Mailer;
  limits?: RateLimitStore;
  google?: GoogleVerifier;
  passwords?: PasswordHasher;
  storage?: Storage;
  chatTools?: Partial<ChatTools>;
  logger?: FastifyServerOptions['logger'];
};

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The whole server, wired in one place. `server.ts` only loads config and listens; tests build the same app. */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      ...(config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY)
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } } }
        : {}),
    },
    bodyLimit: config.bodyLimit,
    // A hop count trusts that many proxies in front of us; proxy-addr takes it as a function of the hop index.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Outside services: real adapters chosen by config unless the caller passes its own.
  const redis =
    !deps.limits && config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
      : null;
  const limits = deps.limits ?? (redis ? createRedisStore(redis) : createMemoryStore());
  const mailer =
    deps.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createFileMailer(path.join(config.dataDir, 'mail'), config.mailFrom, app.log));
  const passwords = deps.passwords ?? createPasswordHasher(config.argon2MemoryKib);
  const google = deps.google ?? createGoogleVerifier(config.google);

  registerRequestContext(app);
  registerErrorHandler(app, database.db);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        frameSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        imgSrc: ["'self'", 'data:', 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || config.corsOrigins.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'lang-type', 'devicetype', 'x-request-id'],
    exposedHeaders: ['x-request-id', 'retry-after'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Parley API',
        version: '0.1.0',
        description: 'Every call of the Parley API. Answers: { status, message, data }.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(multipart, { limits: UPLOAD_LIMITS });

  const auth = createAuthService({ db: database.db, config, mailer, passwords, google, limits, log: app.log });
  const users = createUserService({ db: database.db, passwords });
  const requireAuth = createRequireAuth(auth);

  defineRoute(app, 'health', requireAuth, async () => {
    await database.db.execute(sql`select 1`);
    return { data: { ok: true, database: database.kind } };
  });
  registerAuthRoutes(app, { auth, users, googleClientId: config.google.clientId, requireAuth });

  const registry = createModelRegistry(config.ai);
  const credits = createCreditsService({ db: database.ledger });
  const box = createSecretBox(await resolveAppSecret(config.appSecret, config.dataDir));
  const keys = createKeysService({ db: database.db, box, allowPrivateBaseUrls: config.ai.allowPrivateBaseUrls });
  const storage = deps.storage ?? createLocalStorage(path.join(config.dataDir, 'files'));
  const tools = { ...createChatTools(config), ...deps.chatTools };
  const chat = createChatService({
    db: database.db,
    registry,
    keys,
    credits,
    storage,
    tools,
    log: app.log,
    timeoutMs: config.ai.timeoutMs,
  });
  const writing = createWritingService({
    db: database.db,
    registry,
    keys,
    credits,
    users,
    tools,
    timeoutMs: config.ai.timeoutMs,
  });
  registerChatRoutes(app, { chat, keys, registry, credits, requireAuth, startAuth: createStartAuth(auth) });
  registerWritingRoutes(app, writing, requireAuth);

  await registerWeb(app, config.serveWeb ? config.webDist : null);

  // Reservations left by a process that stopped mid-request go back to their owners: at start, then every 10 minutes.
  const staleAfterSeconds = Math.max(config.ai.timeoutMs / 1000, 60) + 600;
  const sweep = () =>
    credits
      .sweepStale(staleAfterSeconds)
      .then((refunded) => refunded > 0 && app.log.warn({ refunded }, 'refunded reservations left pending'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not refund stale reservations'));
  const sweeper = setInterval(sweep, 10 * 60 * 1000).unref();
  app.addHook('onReady', async () => {
    await sweep();
  });

  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await Promise.allSettled([limits.close(), mailer.close()]);
    await database.close();
  });

  return Object.assign(app, { services: { auth, users, chat, keys, credits } });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
