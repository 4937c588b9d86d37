import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Unexpected server errors, kept for the admin portal's error log. */
export const errorLogs = pgTable(
  'error_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    requestId: text('request_id'),
    method: text('method'),
    url: text('url'),
    status: integer('status'),
    userId: uuid('user_id'),
    message: text('message').notNull(),
    stack: text('stack'),
  },
  (t) => [index('error_logs_created_idx').on(t.createdAt)],
);
