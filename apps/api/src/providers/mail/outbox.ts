import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/index.js';
import { safeError } from '../../lib/redact.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Mailer, MailMessage } from './index.js';

/** How long an attempt may hold a mail before another may try it (longer than the transport's own timeouts). */
const LEASE_SECONDS = 120;
/** Waits after the 1st, 2nd, … failed attempt; the last one repeats. */
const BACKOFF_SECONDS = [30, 60, 120, 300, 600, 1800];
/** A mail not delivered within a day is dropped (its links have expired by then). */
const GIVE_UP_AFTER_SECONDS = 24 * 3600;

export type Outbox = Mailer & {
  /** Delivers the mails that are due (a worker calls this every 30 s); returns how many were delivered. */
  deliverDue(): Promise<number>;
};

/**
 * A Mailer that never loses a mail: `send` stores the mail (sealed) and then tries to deliver it at once, waiting at
 * most `firstAttemptMs`, so that the person's answer neither waits for a slow mail server nor depends on it. A mail
 * that could not be delivered stays and is retried with back-off, by whichever instance gets to it first.
 */
export function createOutbox({
  db,
  box,
  transport,
  log,
  firstAttemptMs = 2000,
}: {
  db: Db;
  box: SecretBox;
  transport: Mailer;
  log: FastifyBaseLogger;
  firstAttemptMs?: number;
}): Outbox {
  /** One attempt at a stored mail: delivered → removed; failed → tried again later (or dropped, after a day). */
  async function attempt(id: string, message: MailMessage, attempts: number, createdAt: Date) {
    try {
      await transport.send(message);
      await db.delete(mailOutbox).where(eq(mailOutbox.id, id));
      return true;
    } catch (error) {
      const safe = safeError(error);
      if (Date.now() - createdAt.getTime() > GIVE_UP_AFTER_SECONDS * 1000) {
        log.error({ err: error, attempts }, 'gave up delivering a mail after a day of attempts');
        await db.delete(mailOutbox).where(eq(mailOutbox.id, id));
        return false;
      }
      const wait = BACKOFF_SECONDS[Math.min(attempts, BACKOFF_SECONDS.length) - 1] ?? BACKOFF_SECONDS[0]!;
      log.warn({ err: error, attempts, retryInSeconds: wait }, 'mail delivery failed; it will be tried again');
      await db
        .update(mailOutbox)
        .set({
          lastError: `${safe.code ?? safe.type}: ${safe.message}`.slice(0, 500),
          nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
        })
        .where(eq(mailOutbox.id, id));
      return false;
    }
  }

  return {
    async send(message) {
      // Stored first, with a lease that keeps the workers off it while this first attempt runs.
      const [row] = await db
        .insert(mailOutbox)
        .values({
          sealed: box.seal(JSON.stringify(message)),
          attempts: 1,
          nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
        })
        .returning({ id: mailOutbox.id, createdAt: mailOutbox.createdAt });
      const first = attempt(row!.id, message, 1, row!.createdAt).catch((error: unknown) => {
        log.error({ err: error }, 'could not record a mail attempt');
        return false;
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, firstAttemptMs)))]);
      clearTimeout(timer);
    },

    async deliverDue() {
      const claimed = (await db.execute(sql`
        UPDATE mail_outbox SET attempts = attempts + 1,
               next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
         WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= now()
                       ORDER BY next_attempt_at LIMIT 20 FOR UPDATE SKIP LOCKED)
     RETURNING id, sealed, attempts, created_at`)) as unknown as {
        rows: { id: string; sealed: string; attempts: number; created_at: Date | string }[];
      };
      let delivered = 0;
      for (const row of claimed.rows) {
        let message: MailMessage;
        try {
          message = JSON.parse(box.open(row.sealed)) as MailMessage;
        } catch {
          // Sealed with another secret (an instance without the shared APP_SECRET): left for that instance.
          log.error('a stored mail cannot be opened with this server’s secret; set the same APP_SECRET everywhere');
          continue;
        }
        if (await attempt(row.id, message, row.attempts, new Date(row.created_at))) delivered += 1;
      }
      return delivered;
    },

    close: () => transport.close(),
  };
}
