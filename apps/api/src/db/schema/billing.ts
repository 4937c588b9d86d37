import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { PLAN_IDS } from '@parley/contract';
import { users } from './users.js';

/**
 * What pays for AI calls: a person's balances (an organization's, later), one per credit kind. Every change of a
 * balance is a row of `wallet_ledger`, in the same statement, so a wallet's balance always equals its ledger's sum.
 */
export const wallets = pgTable(
  'wallets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: PLAN_IDS }).notNull().default('free'),
    dailyCredit: integer('daily_credit').notNull().default(0),
    basicCredit: integer('basic_credit').notNull().default(0),
    advanceCredit: integer('advance_credit').notNull().default(0),
    extraAdvanceCredit: integer('extra_advance_credit').notNull().default(0),
    /** The owner's next midnight, when the daily credits come back. */
    dailyRenewsAt: timestamp('daily_renews_at', { withTimezone: true }).notNull(),
    /** For plans that renew monthly without payment: when the other credits are next topped up. */
    monthlyRenewsAt: timestamp('monthly_renews_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('wallets_daily_renews_idx').on(t.dailyRenewsAt),
    index('wallets_monthly_renews_idx').on(t.monthlyRenewsAt),
  ],
);

export const BALANCES = ['daily', 'basic', 'advance', 'extraAdvance'] as const;
export type Balance = (typeof BALANCES)[number];

/**
 * Every change of a wallet's balances: `amount` is added to `balance`. A metered call is a `reserve` row (negative,
 * `state` reserved → charged | refunded); a refund adds a `refund` row pointing at its reservation. `tier` is the
 * tier of the model used (what "use" counts); `balance` is what paid (daily credits pay for basic and advance).
 */
export const walletLedger = pgTable(
  'wallet_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    /** Who spent (for an organization's wallet, the member). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    balance: text('balance', { enum: BALANCES }).notNull(),
    tier: text('tier', { enum: ['basic', 'advance', 'extraAdvance'] }),
    amount: integer('amount').notNull(),
    kind: text('kind', { enum: ['opening', 'grant', 'renewal', 'reserve', 'refund', 'adjust'] }).notNull(),
    state: text('state', { enum: ['reserved', 'charged', 'refunded'] }),
    feature: text('feature'),
    reservationId: uuid('reservation_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('wallet_ledger_wallet_idx').on(t.walletId, t.createdAt),
    index('wallet_ledger_reserved_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'reserved'`),
  ],
);

/**
 * Credits used (charged calls), per wallet, hour and model tier: the ledger's charged reservations summed as they are
 * charged, in the statement that charges them, so that "use over the last 30 days" reads at most 720 rows a tier
 * instead of every call of the month. Hours, so that days can be counted in any time zone of whole hours.
 */
export const walletUsage = pgTable(
  'wallet_usage',
  {
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    tier: text('tier', { enum: ['basic', 'advance', 'extraAdvance'] }).notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.walletId, t.hour, t.tier] })],
);

/** The free tier's daily uses of a gated capability, per person and per day in their time zone. */
export const featureUses = pgTable(
  'feature_uses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    capability: text('capability').notNull(),
    day: date('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.capability, t.day] })],
);
