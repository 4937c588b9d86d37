import { randomUUID } from 'node:crypto';
import type { PostRepeat } from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { LinkedinApiError, personUrn, type LinkedinClient } from '../../providers/linkedin/index.js';
import * as q from './linkedin.automations.queries.js';
import type { LinkedinConnectionService } from './linkedin.connection.service.js';
import { nextRun } from './linkedin.posts.time.js';

/** How long a worker holds a post it took: far longer than one LinkedIn call may take (its time-out is 15 s). */
export const LEASE_MS = 2 * 60_000;
/** A publication in doubt is read back again after this long… */
export const READBACK_RETRY_MS = 30_000;
/** …until this long after its attempt began; then, not found, it is an Error (never posted again blindly). */
export const READBACK_GRACE_MS = 5 * 60_000;
/** LinkedIn could not be reached (nothing sent): tried again after this long, for up to an hour past its time. */
export const UNREACHABLE_RETRY_MS = 60_000;
export const UNREACHABLE_GIVE_UP_MS = 60 * 60_000;
/** A published post's creation time may be a little before ours (clocks differ). */
const CLOCK_SKEW_MS = 2 * 60_000;

/** Text as compared on read-back: LinkedIn may give line breaks and outer spaces back differently. */
const comparable = (text: string) => text.replace(/\r\n?/g, '\n').trim();

export type RunOutcome = 'skipped' | 'published' | 'found' | 'retryLater' | 'error';

/**
 * Publishes due scheduled posts, each run at most once, whichever worker or process gets there first:
 *
 * 1. claim: one conditional UPDATE gives the post to one worker for a lease;
 * 2. the run's dedupe key (and when the attempt began) is written before LinkedIn is called;
 * 3. LinkedIn answers: Completed (or, for a repeat, Pending at its next time), or Error for a clear refusal;
 * 4. no answer (lost, slow, a server error): the key stays. Whoever takes the post next finds a key without an outcome
 *    and reads back the author's recent posts for this text created since the attempt began: found, Completed; not
 *    found within the grace period, Error (LINKEDIN_UNCONFIRMED). Create is never called twice for one key;
 * 5. a post left in doubt that the person resumes is looked for once more before it is sent: found, Completed.
 */
export function createPublisher(deps: {
  db: Db;
  client: LinkedinClient | null;
  connection: Pick<LinkedinConnectionService, 'postingToken' | 'markLoginNeeded'>;
  log: FastifyBaseLogger;
  clock?: () => Date;
}) {
  const { db, client, connection, log } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** A repeat's next time; whether there is one (its daily run still on) is decided when the run is recorded. */
  const next = (row: q.AutomationRow, now: Date) =>
    row.repeat !== 'none' && row.runAt && row.localTime && row.timezone
      ? nextRun(row.runAt, row.localTime, row.timezone, row.repeat as PostRepeat, now)
      : null;

  /** The run with `key` published `postUrn`; a daily run disabled meanwhile ends the series here. */
  async function settle(row: q.AutomationRow, key: string, postUrn: string, publishedAt: Date) {
    const now = clock();
    await q.finishPublished(db, row.id, key, { postUrn, publishedAt, nextRunAt: next(row, now) }, now);
  }

  async function fail(
    row: q.AutomationRow,
    by: { key: string } | { worker: string },
    code: string,
    options: { inDoubt?: boolean } = {},
  ) {
    await q.failRun(db, row.id, by, code, clock(), options);
    log.info({ automationId: row.id, code }, 'scheduled post not published');
    return 'error' as const;
  }

  /** LinkedIn refused the member's token: they are asked to connect again, and the run ends. */
  async function loginNeeded(row: q.AutomationRow, by: { key: string } | { worker: string }, inDoubt = false) {
    await connection.markLoginNeeded(row.userId);
    return fail(row, by, 'LINKEDIN_LOGIN_NEEDED', { inDoubt });
  }

  /** The run with `key` is the post found on LinkedIn. */
  async function settleFound(
    row: q.AutomationRow,
    key: string,
    found: { id: string; createdAt: Date | null },
    at: Date,
  ) {
    await settle(row, key, found.id, found.createdAt ?? at);
    log.info({ automationId: row.id, postUrn: found.id }, 'scheduled post found published on LinkedIn');
    return 'found' as const;
  }

  /** The post of the attempt begun at `startedAt`, if LinkedIn has it (throws LinkedinApiError when it cannot say). */
  async function findPublished(row: q.AutomationRow, accessToken: string, memberId: string, startedAt: Date) {
    const wanted = comparable(client!.storedCommentary(row.text ?? ''));
    const posts = await client!.recentPosts(accessToken, personUrn(memberId));
    return posts.find(
      (p) =>
        comparable(p.commentary) === wanted &&
        (!p.createdAt || p.createdAt.getTime() >= startedAt.getTime() - CLOCK_SKEW_MS),
    );
  }

  /**
   * A key without an outcome: look for the post on LinkedIn instead of posting again. Every way this ends in Error
   * leaves the post in doubt (see failRun): it may be on LinkedIn.
   */
  async function readBack(row: q.AutomationRow, worker: string): Promise<RunOutcome> {
    const key = row.dedupeKey!;
    const startedAt = row.attemptStartedAt ?? row.updatedAt;
    const inDoubt = { inDoubt: true };
    const token = await connection.postingToken(row.userId);
    if (!token.ok || !client) return fail(row, { key }, token.ok ? 'LINKEDIN_NOT_CONFIGURED' : token.code, inDoubt);
    try {
      const found = await findPublished(row, token.accessToken, token.memberId, startedAt);
      if (found) return settleFound(row, key, found, startedAt);
    } catch (error) {
      if (!(error instanceof LinkedinApiError)) throw error;
      if (error.failure === 'auth') return loginNeeded(row, { key }, true);
      log.warn({ automationId: row.id, linkedin: error.message }, 'could not read back a scheduled post');
    }
    const now = clock();
    if (now.getTime() - startedAt.getTime() >= READBACK_GRACE_MS) {
      return fail(row, { key }, 'LINKEDIN_UNCONFIRMED', inDoubt);
    }
    await q.release(db, row.id, worker, new Date(now.getTime() + READBACK_RETRY_MS), now);
    return 'retryLater';
  }

  /** One post, if it is due and nobody holds it. */
  async function runOne(id: string, worker: string): Promise<RunOutcome> {
    const now = clock();
    const row = await q.claim(db, id, worker, now, new Date(now.getTime() + LEASE_MS));
    if (!row) return 'skipped';
    if (row.dedupeKey) return readBack(row, worker);

    if (!client) return fail(row, { worker }, 'LINKEDIN_NOT_CONFIGURED');
    const token = await connection.postingToken(row.userId);
    if (!token.ok) return fail(row, { worker }, token.code);

    const key = `${row.id}:${row.runs}:${randomUUID()}`;
    if (row.attemptStartedAt) {
      // The person resumed a post whose last run LinkedIn never confirmed: it is looked for before it is sent again.
      try {
        const found = await findPublished(row, token.accessToken, token.memberId, row.attemptStartedAt);
        if (found) {
          if (!(await q.startAttempt(db, row.id, worker, key, clock()))) return 'skipped';
          return settleFound(row, key, found, row.attemptStartedAt);
        }
      } catch (error) {
        if (!(error instanceof LinkedinApiError)) throw error;
        if (error.failure === 'auth') return loginNeeded(row, { worker });
        log.warn({ automationId: row.id, linkedin: error.message }, 'could not read back a scheduled post');
        // Not known yet: never sent blindly. Asked again a little later, for up to an hour past its time.
        const later = clock();
        if (later.getTime() - (row.runAt?.getTime() ?? later.getTime()) >= UNREACHABLE_GIVE_UP_MS) {
          return fail(row, { worker }, 'LINKEDIN_UNCONFIRMED');
        }
        await q.release(db, row.id, worker, new Date(later.getTime() + READBACK_RETRY_MS), later);
        return 'retryLater';
      }
    }
    const started = await q.startAttempt(db, row.id, worker, key, clock());
    if (!started) return 'skipped';
    try {
      const { id: postUrn } = await client.createPost(token.accessToken, {
        author: personUrn(token.memberId),
        commentary: row.text ?? '',
        visibility: row.visibility,
      });
      const done = clock();
      await settle(row, key, postUrn, done);
      log.info({ automationId: row.id, postUrn }, 'scheduled post published');
      return 'published';
    } catch (error) {
      if (!(error instanceof LinkedinApiError)) {
        // Unknown: the key stays, and the post is read back rather than sent again.
        log.error({ err: error, automationId: row.id }, 'publishing a scheduled post failed');
        await q.release(db, row.id, worker, new Date(clock().getTime() + READBACK_RETRY_MS), clock());
        return 'retryLater';
      }
      log.warn({ automationId: row.id, linkedin: error.message }, 'LinkedIn did not publish a scheduled post');
      const later = clock();
      switch (error.failure) {
        case 'auth':
          return loginNeeded(row, { key });
        case 'rejected':
          return fail(row, { key }, 'LINKEDIN_ERROR');
        case 'unreachable':
          if (later.getTime() - (row.runAt?.getTime() ?? later.getTime()) >= UNREACHABLE_GIVE_UP_MS) {
            return fail(row, { key }, 'LINKEDIN_ERROR');
          }
          await q.release(db, row.id, worker, new Date(later.getTime() + UNREACHABLE_RETRY_MS), later, key);
          return 'retryLater';
        case 'unclear':
          await q.release(db, row.id, worker, new Date(later.getTime() + READBACK_RETRY_MS), later);
          return 'retryLater';
      }
    }
  }

  return {
    runOne,
    /**
     * Every post due now (up to `limit`), one after another. Once `signal` is aborted (the scheduler is stopping) no
     * further post is taken; the one in progress finishes.
     */
    async runDue(worker: string, options: { limit?: number; signal?: AbortSignal } = {}) {
      const outcomes: RunOutcome[] = [];
      for (const id of await q.dueIds(db, clock(), options.limit ?? 50)) {
        if (options.signal?.aborted) break;
        outcomes.push(await runOne(id, worker));
      }
      return outcomes;
    },
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
