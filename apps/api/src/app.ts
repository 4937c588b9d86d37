import { randomUUID } from 'node:crypto';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from '@fastify/type-provider-zod';
import { pickUiLanguage } from '@parley/contract';
import { sql } from 'drizzle-orm';
import Fastify, { LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createPasswordHasher, type PasswordHasher } from './lib/passwords.js';
import { logSerializers } from './lib/redact.js';
import { createMemoryStore, createRedisStore, type RateLimitStore } from './lib/rate-limit.js';
import { defineRoute } from './lib/route.js';
import { createSecretBox, resolveAppSecret } from './lib/secret-box.js';
import {
  createAuthService,
  createDirectory,
  createStartAuth,
  createUserService,
  registerAccountsRoutes,
} from './modules/accounts/index.js';
import { createAdminService, createRecordAudit, registerAdminRoutes } from './modules/admin/index.js';
import {
  createBillingService,
  createPaymentsService,
  createWalletsAdmin,
  registerBillingRoutes,
  registerPaymentRoutes,
} from './modules/billing/index.js';
import { createRequireCaller } from './plugins/caller.js';
import { createChatService, createHistories, createTurns, registerChatRoutes } from './modules/chat/index.js';
import { createAiLimits } from './lib/ai-limits.js';
import { createDocumentTools, type DocumentTools } from './modules/documents/index.js';
import { createModelsService, registerModelsRoutes } from './modules/models/index.js';
import { createOrganizationsService, registerOrganizationRoutes } from './modules/organizations/index.js';
import { createImagesService, registerImageRoutes } from './modules/images/index.js';
import {
  createLinkedinDrafts,
  createLinkedinEngage,
  createLinkedinSettings,
  createLinkedinStats,
  registerLinkedinDraftRoutes,
  registerLinkedinSettingsRoutes,
  registerLinkedinStatsRoutes,
} from './modules/linkedin/index.js';
import {
  createAutomationsService,
  createLinkedinConnection,
  createPostsService,
  createPublisher,
  createScheduler,
  registerAutomationRoutes,
  registerLinkedinConnectionRoutes,
  registerLinkedinPostRoutes,
} from './modules/linkedin/index.js';
import { createLinkedinClient, linkedinPictureOrigins } from './providers/linkedin/index.js';
import { createTemplatesService, registerTemplateRoutes } from './modules/templates/index.js';
import { createFileStore } from './modules/storage/index.js';
import { createWritingService, registerWritingRoutes } from './modules/writing/index.js';
import { createModelRegistry } from './providers/ai/registry.js';
import { createImageRegistry, type ImageRegistry } from './providers/images/index.js';
import { createLocalStorage, type Storage } from './providers/storage/index.js';
import { registerErrorHandler, sendError } from './plugins/error-handler.js';
import { createExtensionPackager, registerExtensionDownload } from './plugins/extension-download.js';
import { registerCors } from './plugins/cors.js';
import { registerRequestContext } from './plugins/request-context.js';
import { helmetOptions, securityHeaders } from './plugins/security-headers.js';
import { serializerCompiler } from './plugins/serializer.js';
import { registerWeb } from './plugins/web.js';
import { createGoogleVerifier, type GoogleVerifier } from './providers/google.js';
import { createFileMailer, createSmtpMailer, type Mailer } from './providers/mail/index.js';
import { createOutbox } from './providers/mail/outbox.js';
import { createStripeProvider } from './providers/payments/stripe.js';

export type AppDeps = {
  config: Config;
  database: Database;
  /** Overrides for outside services; by default they are built from config. */
  mailer?: Mailer;
  limits?: RateLimitStore;
  google?: GoogleVerifier;
  passwords?: PasswordHasher;
  storage?: Storage;
  /** The image providers (by default from config: the server's keys for OpenAI, BFL, fal, Replicate, a local server). */
  imageRegistry?: ImageRegistry;
  documentTools?: Partial<DocumentTools>;
  /** The clock of credit renewals and daily limits (tests move it). */
  clock?: () => Date;
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: DestinationStream;
};

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
/** The API's documentation: pages (with their own content security policy), not API answers. */
const API_DOCS = '/api/docs';

/** The whole server, wired in one place. `server.ts` only loads config and listens; tests build the same app. */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secrets ride in query strings (verification tokens, reset keys) and failed statements carry their
      // parameters (people's words): log lines keep neither (lib/redact.ts).
      serializers: logSerializers,
      ...(deps.logStream
        ? { stream: deps.logStream }
        : config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY)
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
    // A path the router cannot read (bad percent-encoding, a parameter too long) gets the usual localized 400.
    frameworkErrors: (error, request, reply) => {
      const header = request.headers['lang-type'];
      request.lang = pickUiLanguage(Array.isArray(header) ? header[0] : header);
      void sendError(request, reply, 'BAD_REQUEST');
    },
    // A request (headers and body) that takes longer than this to arrive is answered 408 and its connection closed.
    requestTimeout: config.requestTimeoutMs,
    return503OnClosing: true,
    // One line per request, when it is answered (request-context.ts), instead of one as it arrives and one as it ends.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Outside services: real adapters chosen by config unless the caller passes its own.
  const redis =
    !deps.limits && config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
      : null;
  const limits = deps.limits ?? (redis ? createRedisStore(redis, `${config.redisPrefix}rl:`) : createMemoryStore());
  const secret = await resolveAppSecret(config.appSecret, config.dataDir);
  // Every mail goes through the outbox (stored, then delivered, retried until the mail server takes it).
  const mailer = createOutbox({
    db: database.db,
    box: createSecretBox(secret, 'parley:mail-outbox'),
    log: app.log,
    transport:
      deps.mailer ??
      (config.smtpUrl
        ? createSmtpMailer(config.smtpUrl, config.mailFrom)
        : createFileMailer(path.join(config.dataDir, 'mail'), config.mailFrom, app.log, {
            printLinks: config.env === 'development',
          })),
  });
  const passwords = deps.passwords ?? createPasswordHasher(config.argon2MemoryKib);
  const google = deps.google ?? createGoogleVerifier(config.google);

  registerRequestContext(
    app,
    securityHeaders(helmetOptions({ pictureOrigins: linkedinPictureOrigins(config.linkedin) })),
    [API_DOCS],
  );
  registerErrorHandler(app, database.db);

  registerCors(app, {
    origins: config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'lang-type', 'devicetype', 'x-request-id'],
    exposedHeaders: ['x-request-id', 'retry-after'],
    maxAgeSeconds: 600,
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
  await app.register(swaggerUi, { routePrefix: API_DOCS, staticCSP: true });

  // Billing owns wallets and the one way to spend; accounts (a lower layer) gets what it needs of it as functions.
  const billing = createBillingService({
    db: database.db,
    ledger: database.ledger,
    log: app.log,
    clock: deps.clock,
    plans: config.payments.catalogue.plans,
  });
  const auth = createAuthService({
    db: database.db,
    config,
    mailer,
    passwords,
    google,
    limits,
    log: app.log,
    billing: billing.forAccounts,
  });
  const users = createUserService({
    db: database.db,
    passwords,
    billing: billing.forAccounts,
    limits,
    rateLimits: config.rateLimits,
  });
  const requireAuth = createRequireCaller({ auth, billing });

  defineRoute(app, 'health', requireAuth, async () => {
    await database.db.execute(sql`select 1`);
    return { data: { ok: true, database: database.kind } };
  });
  registerAccountsRoutes(app, {
    auth,
    users,
    googleClientId: config.google.clientId,
    helpUrl: config.helpUrl,
    requireAuth,
    requireAuthForProfile: createRequireCaller({ auth, billing, withRecentUse: true }),
  });
  registerBillingRoutes(app, { billing, requireAuth });
  const stripe = config.payments.stripe;
  const payments = createPaymentsService({
    db: database.db,
    provider: stripe ? createStripeProvider(stripe) : null,
    catalogue: config.payments.catalogue,
    trialDays: config.payments.trialDays,
    studentDomains: config.payments.studentDomains,
    graceDays: config.payments.graceDays,
    publicUrl: config.publicUrl,
    mailer,
    log: app.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  registerPaymentRoutes(app, { payments, billing, requireAuth, limits });

  const models = createModelsService({
    db: database.db,
    registry: createModelRegistry(config.ai),
    box: createSecretBox(secret),
    allowPrivateBaseUrls: config.ai.allowPrivateBaseUrls,
  });
  const imageRegistry = deps.imageRegistry ?? createImageRegistry(config.images);
  // The S3 client is loaded only when S3 storage is configured (it adds ~100 ms to a start).
  const s3 =
    !deps.storage && config.s3 ? (await import('./providers/storage/s3.js')).createS3Storage(config.s3) : undefined;
  const files = createFileStore({
    storage: deps.storage ?? s3 ?? createLocalStorage(path.join(config.dataDir, 'files')),
    log: app.log,
  });
  const tools = { ...createDocumentTools(config), ...deps.documentTools };
  // The messages this server last wrote to each conversation: a follow-up starts from them (decision 012).
  const histories = createHistories();
  const chat = createChatService({ db: database.db, files, histories });
  const turns = createTurns({
    histories,
    db: database.db,
    models,
    billing,
    files,
    tools,
    log: app.log,
    timeoutMs: config.ai.timeoutMs,
  });
  const writing = createWritingService({
    db: database.db,
    models,
    billing,
    users,
    tools,
    log: app.log,
    timeoutMs: config.ai.timeoutMs,
  });
  const aiLimits = createAiLimits({
    limits,
    perUser: config.rateLimits.aiPerUser,
    perIp: config.rateLimits.aiPerIp,
  });
  const bodyTimeoutMs = config.requestTimeoutMs;
  registerModelsRoutes(app, { models, requireAuth });
  registerChatRoutes(app, { chat, turns, aiLimits, bodyTimeoutMs, requireAuth, startAuth: createStartAuth(auth) });
  registerWritingRoutes(app, { writing, requireAuth, aiLimits, bodyTimeoutMs });
  registerTemplateRoutes(app, { templates: createTemplatesService({ db: database.db }), requireAuth, limits });
  const images = createImagesService({
    db: database.db,
    files,
    registry: imageRegistry,
    models,
    billing,
    log: app.log,
    timeoutMs: config.images.timeoutMs,
  });
  registerImageRoutes(app, { images, requireAuth, aiLimits, bodyTimeoutMs });

  // The LinkedIn assistant: settings and AI customization, watch lists, drafted comments, stats.
  const linkedinClock = deps.clock ?? (() => new Date());
  const linkedinPlans = config.payments.catalogue.plans;
  const linkedinSettings = createLinkedinSettings({ db: database.db, plans: linkedinPlans, clock: linkedinClock });
  registerLinkedinSettingsRoutes(app, {
    settings: linkedinSettings,
    engage: createLinkedinEngage({ db: database.db, plans: linkedinPlans, clock: linkedinClock }),
    requireAuth,
    limits,
  });
  registerLinkedinDraftRoutes(app, {
    drafts: createLinkedinDrafts({
      db: database.db,
      models,
      billing,
      users,
      settings: linkedinSettings,
      log: app.log,
      timeoutMs: config.ai.timeoutMs,
      clock: linkedinClock,
    }),
    requireAuth,
    aiLimits,
    limits,
  });
  registerLinkedinStatsRoutes(app, {
    stats: createLinkedinStats({ db: database.db, clock: linkedinClock, log: app.log }),
    requireAuth,
    limits,
    bodyTimeoutMs,
  });

  // The site admin portal; its audit log is also handed to the modules whose admins' actions it records.
  const recordAudit = createRecordAudit(database.db);
  const directory = createDirectory({ db: database.db });
  const organizations = createOrganizationsService({
    db: database.db,
    billing: billing.forOrganizations,
    directory,
    mailer,
    publicUrl: config.publicUrl,
    recordAudit,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  registerOrganizationRoutes(app, { organizations, requireAuth, limits });
  // LinkedIn: the connection (OAuth), the person's scheduled posts and their publisher, the automations list.
  const linkedinApp = config.linkedin;
  const linkedinClient =
    linkedinApp.clientId && linkedinApp.clientSecret
      ? createLinkedinClient({
          clientId: linkedinApp.clientId,
          clientSecret: linkedinApp.clientSecret,
          authUrl: linkedinApp.authUrl,
          apiUrl: linkedinApp.apiUrl,
          apiVersion: linkedinApp.apiVersion,
        })
      : null;
  const linkedinConnection = createLinkedinConnection({
    db: database.db,
    client: linkedinClient,
    box: createSecretBox(secret, 'parley:linkedin-tokens'),
    redirectUri: `${config.publicUrl}/linkedin-auth-redirect`,
    log: app.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const linkedinPublisher = createPublisher({
    db: database.db,
    client: linkedinClient,
    connection: linkedinConnection,
    log: app.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const linkedinScheduler = createScheduler({
    database,
    publisher: linkedinPublisher,
    log: app.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const onScheduled = (automationId: string, runAt: Date) =>
    void linkedinScheduler
      .enqueue(automationId, runAt)
      .catch((error: unknown) => app.log.error({ err: error }, 'could not queue a scheduled post'));
  const linkedinAutomations = createAutomationsService({
    db: database.db,
    recordAudit,
    onScheduled,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const linkedinPosts = createPostsService({
    db: database.db,
    models,
    billing,
    users,
    log: app.log,
    timeoutMs: config.ai.timeoutMs,
    onScheduled,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  registerLinkedinConnectionRoutes(app, { connection: linkedinConnection, requireAuth, limits });
  registerLinkedinPostRoutes(app, { posts: linkedinPosts, requireAuth, aiLimits, limits });
  registerAutomationRoutes(app, { automations: linkedinAutomations, requireAuth, limits });

  const admin = createAdminService({
    db: database.db,
    directory,
    billing,
    wallets: createWalletsAdmin({ db: database.db, ...(deps.clock ? { clock: deps.clock } : {}) }),
    payments,
    organizations: organizations.forSiteAdmin,
    automations: linkedinAutomations,
    recordAudit,
  });
  registerAdminRoutes(app, { admin, requireAuth });

  const packager = createExtensionPackager({ dist: config.extension.dist, publicUrl: config.publicUrl, log: app.log });
  registerExtensionDownload(app, { packager, storeUrl: config.extension.storeUrl, requireAuth });

  await registerWeb(app, config.serveWeb ? config.webDist : null);

  // Reservations left by a process that stopped mid-request go back to their owners: at start, then every 10 minutes.
  const staleAfterSeconds = Math.max(config.ai.timeoutMs / 1000, 60) + 600;
  const sweep = () =>
    billing
      .sweepStale(staleAfterSeconds)
      .then((refunded) => refunded > 0 && app.log.warn({ refunded }, 'refunded reservations left pending'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not refund stale reservations'));
  const sweeper = setInterval(sweep, 10 * 60 * 1000).unref();
  // Files and documents nothing can reach any more (a turn cut off mid-write, a crash between a row and its file):
  // an hour after they were written, at start and every hour.
  const sweepFiles = () =>
    chat
      .sweepOrphans(3600)
      .then((removed) => removed > 0 && app.log.info({ removed }, 'removed orphaned files'))
      .catch((error: unknown) => app.log.error({ err: error }, 'could not sweep orphaned files'));
  const fileSweeper = setInterval(sweepFiles, 60 * 60 * 1000).unref();
  // Daily credits come back at each person's midnight, monthly allowances when due: checked every minute
  // (CREDIT_RENEWAL_SECONDS).
  const renew = () =>
    billing
      .renewDue()
      .then(() => payments.endDue())
      .catch((error: unknown) => app.log.error({ err: error }, 'could not renew credits'));
  const renewer = setInterval(renew, config.payments.renewalEveryMs).unref();
  const deliverMail = () =>
    mailer.deliverDue().catch((error: unknown) => app.log.error({ err: error }, 'could not deliver stored mails'));
  const mailWorker = setInterval(deliverMail, 30 * 1000).unref();
  // LinkedIn sign-in states nobody came back with (past their 10 minutes): at start and every 10 minutes.
  const sweepLinkedinStates = () =>
    linkedinConnection
      .sweepStates()
      .catch((error: unknown) => app.log.error({ err: error }, 'could not remove expired LinkedIn sign-in states'));
  const linkedinStateSweeper = setInterval(sweepLinkedinStates, 10 * 60 * 1000).unref();
  app.addHook('onReady', async () => {
    await sweep();
    await sweepLinkedinStates();
    await renew();
    void sweepFiles();
    void deliverMail();
  });

  // Due posts are published by this process when LINKEDIN_SCHEDULER is on (by default, except under tests).
  if (linkedinApp.scheduler) {
    app.addHook('onReady', async () => {
      await linkedinScheduler
        .start()
        .catch((error: unknown) => app.log.error({ err: error }, 'the scheduled posts could not start'));
    });
  }

  app.addHook('onClose', async () => {
    // Thumbnails still being made after their answers are finished, while the storage is open.
    await images.settle();
    await linkedinScheduler
      .stop()
      .catch((error: unknown) => app.log.error({ err: error }, 'the scheduled posts did not stop cleanly'));
    clearInterval(sweeper);
    clearInterval(fileSweeper);
    clearInterval(renewer);
    clearInterval(mailWorker);
    clearInterval(linkedinStateSweeper);
    histories.close();
    await Promise.allSettled([limits.close(), mailer.close(), (async () => s3?.close())()]);
    await database.close();
  });

  return Object.assign(app, {
    services: {
      auth,
      users,
      chat,
      histories,
      models,
      imageRegistry,
      images,
      billing,
      payments,
      organizations,
      admin,
      mail: mailer,
      linkedin: {
        connection: linkedinConnection,
        posts: linkedinPosts,
        automations: linkedinAutomations,
        publisher: linkedinPublisher,
        scheduler: linkedinScheduler,
      },
    },
  });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
