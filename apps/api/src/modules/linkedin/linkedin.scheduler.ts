import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Database } from '../../db/client.js';
import type { Publisher } from './linkedin.scheduler.publisher.js';

/**
 * When due posts are published. On PostgreSQL, a pg-boss queue in the same database: a job per post at its time, and
 * a sweep every minute that pg-boss runs on one instance at a time (whatever a lost job missed). On the embedded
 * database (one process), an in-process twin: a timer per post and a sweep. Either way the publisher decides, with
 * the same conditional statements, so a post is published at most once however many workers look at it.
 */
export type Scheduler = {
  kind: 'pg-boss' | 'in-process';
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A post was scheduled or moved: run it at `runAt` (the sweep catches it anyway). */
  enqueue(automationId: string, runAt: Date): Promise<void>;
};

const POST_QUEUE = 'linkedin-post';
const SWEEP_QUEUE = 'linkedin-post-sweep';
/** setTimeout's longest wait; a post further away is set up by a later sweep. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const workerId = () => `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;

export function createInProcessScheduler(deps: {
  publisher: Publisher;
  log: FastifyBaseLogger;
  clock?: () => Date;
  sweepMs?: number;
}): Scheduler {
  const { publisher, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const worker = workerId();
  const timers = new Map<string, NodeJS.Timeout>();
  let sweeper: NodeJS.Timeout | null = null;
  let running = false;
  /** Aborted by stop(): runs queued before it do not start, a sweep takes no further post. */
  let stopping = new AbortController();
  /** One run at a time in this process (the rules hold without it; it keeps the embedded database calm). */
  let chain: Promise<unknown> = Promise.resolve();
  const serial = (task: (signal: AbortSignal) => Promise<unknown>) => {
    const { signal } = stopping;
    chain = chain
      .then(() => (signal.aborted ? undefined : task(signal)))
      .catch((error: unknown) => log.error({ err: error }, 'scheduled posts: a run failed'));
    return chain;
  };
  const sweep = () => serial((signal) => publisher.runDue(worker, { signal }));

  return {
    kind: 'in-process',
    async start() {
      if (running) return;
      running = true;
      stopping = new AbortController();
      sweeper = setInterval(() => void sweep(), deps.sweepMs ?? 15_000);
      sweeper.unref();
      void sweep();
    },
    async stop() {
      running = false;
      stopping.abort();
      if (sweeper) clearInterval(sweeper);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await chain;
    },
    async enqueue(automationId, runAt) {
      if (!running) return;
      clearTimeout(timers.get(automationId));
      const wait = Math.max(0, runAt.getTime() - clock().getTime());
      if (wait > MAX_TIMER_MS) return;
      const timer = setTimeout(() => {
        timers.delete(automationId);
        void serial(() => publisher.runOne(automationId, worker));
      }, wait);
      timer.unref();
      timers.set(automationId, timer);
    },
  };
}

export function createPgBossScheduler(deps: {
  publisher: Publisher;
  log: FastifyBaseLogger;
  /** The application's pool: pg-boss keeps its tables in the `pgboss` schema of the same database. */
  pool: pg.Pool;
  pollingIntervalSeconds?: number;
}): Scheduler {
  const { publisher, log, pool } = deps;
  const worker = workerId();
  let boss: PgBoss | null = null;
  /** A start in progress: stop() waits for it, then stops what it started. */
  let starting: Promise<void> | null = null;
  /** Aborted by stop(): a sweep in progress takes no further post. */
  let stopping = new AbortController();

  async function begin() {
    const { default: PgBoss } = await import('pg-boss');
    const instance = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) },
      schema: 'pgboss',
    });
    instance.on('error', (error) => log.error({ err: error }, 'scheduled posts: the job queue failed'));
    // Instances starting together would create the queues at the same moment, and PostgreSQL answers that with a
    // deadlock: the setup is done one instance at a time, under a session advisory lock.
    const setup = await pool.connect();
    try {
      await setup.query(`SELECT pg_advisory_lock(hashtextextended('parley:pg-boss:setup', 0))`);
      await instance.start();
      await instance.createQueue(POST_QUEUE);
      await instance.createQueue(SWEEP_QUEUE);
      // pg-boss runs a schedule on one instance at a time; the sweep settles reads-back and what a job missed.
      await instance.schedule(SWEEP_QUEUE, '* * * * *');
    } catch (error) {
      await instance.stop({ graceful: false, close: false }).catch(() => undefined);
      throw error;
    } finally {
      await setup.query(`SELECT pg_advisory_unlock(hashtextextended('parley:pg-boss:setup', 0))`).catch(() => null);
      setup.release();
    }
    const polling = { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2 };
    const { signal } = stopping;
    await instance.work<{ automationId: string }>(POST_QUEUE, polling, async (jobs) => {
      for (const job of jobs) if (!signal.aborted) await publisher.runOne(job.data.automationId, worker);
    });
    await instance.work(SWEEP_QUEUE, polling, async () => {
      await publisher.runDue(worker, { signal });
    });
    boss = instance;
  }

  return {
    kind: 'pg-boss',
    async start() {
      if (boss) return;
      if (!starting) {
        stopping = new AbortController();
        starting = begin().finally(() => {
          starting = null;
        });
      }
      await starting;
    },
    async stop() {
      stopping.abort();
      // Stopped while starting: what the start sets up is stopped once it is there.
      if (starting) await starting.catch(() => undefined);
      const instance = boss;
      boss = null;
      await instance?.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
    },
    async enqueue(automationId, runAt) {
      if (!boss) return;
      await boss.send(
        POST_QUEUE,
        { automationId },
        { startAfter: runAt, singletonKey: `${automationId}:${runAt.toISOString()}` },
      );
    },
  };
}

/** The scheduler for this database: pg-boss on PostgreSQL, the in-process twin on the embedded one. */
export function createScheduler(deps: {
  database: Database;
  publisher: Publisher;
  log: FastifyBaseLogger;
  clock?: () => Date;
}): Scheduler {
  if (deps.database.kind === 'postgres') {
    // node-postgres' drizzle keeps its pool as `$client`.
    const pool = (deps.database.db as unknown as { $client: pg.Pool }).$client;
    return createPgBossScheduler({ publisher: deps.publisher, log: deps.log, pool });
  }
  return createInProcessScheduler({
    publisher: deps.publisher,
    log: deps.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
}
