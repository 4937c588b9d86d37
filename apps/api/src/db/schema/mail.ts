import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Mails waiting for delivery: every mail is written here first and removed once the mail server has taken it, so
 * a mail server that is down or slow costs a retry, never the mail. The mail itself is sealed (AES-256-GCM with
 * the server's secret): it holds links that sign their holder in.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sealed: text('sealed').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time; also a lease: an attempt in progress pushes it forward. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_next_attempt_idx').on(t.nextAttemptAt)],
);
