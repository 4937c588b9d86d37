import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BASE_PLAN_IDS, PAID_PLAN_IDS, PLAN_DURATIONS, PLAN_IDS, SUBSCRIPTION_STATUSES } from '@parley/contract';
import { organizations } from './organizations.js';
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
    /** The plan the wallet returns to when a subscription ends (what the person has without paying). */
    basePlan: text('base_plan', { enum: BASE_PLAN_IDS }).notNull().default('free'),
    /** Seats paid for (Team): the plan's allowance is per seat. */
    seats: integer('seats').notNull().default(1),
    /** The organization this wallet pays for (its owner's wallet); its members spend from it. */
    organizationId: uuid('organization_id')
      .unique()
      .references(() => organizations.id, { onDelete: 'set null' }),
    dailyCredit: integer('daily_credit').notNull().default(0),
    basicCredit: integer('basic_credit').notNull().default(0),
    advanceCredit: integer('advance_credit').notNull().default(0),
    extraAdvanceCredit: integer('extra_advance_credit').notNull().default(0),
    /** The owner's next midnight, when the daily credits come back. */
    dailyRenewsAt: timestamp('daily_renews_at', { withTimezone: true }).notNull(),
    /** For plans that renew monthly without payment: when the other credits are next topped up. */
    monthlyRenewsAt: timestamp('monthly_renews_at', { withTimezone: true }),
    /**
     * The credits used over the 30 days up to `recentDay` (its UTC day and the 29 before it) by tier: the sums of
     * `wallet_usage_days` over them, kept with the wallet so that the profile reads them with it. Each charge adds to
     * them under the wallet's lock; the first read on a later day sums the days again (null: never summed).
     */
    recentDay: date('recent_day', { mode: 'string' }),
    recentBasic: integer('recent_basic').notNull().default(0),
    recentAdvance: integer('recent_advance').notNull().default(0),
    recentExtraAdvance: integer('recent_extra_advance').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('wallets_daily_renews_idx').on(t.dailyRenewsAt),
    index('wallets_monthly_renews_idx').on(t.monthlyRenewsAt),
  ],
);

/**
 * Who spends from a wallet other than its owner: an organization's members (the owner too), each with a monthly
 * limit (credits per calendar month in UTC; null: none) and what they used in `period` (the month it counts). A
 * person spends from one organization's wallet at most; while they do, their own wallet waits.
 */
export const walletMembers = pgTable(
  'wallet_members',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    monthlyLimit: integer('monthly_limit'),
    period: date('period').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [index('wallet_members_wallet_idx').on(t.walletId)],
);

export const BALANCES = ['daily', 'basic', 'advance', 'extraAdvance'] as const;
export type Balance = (typeof BALANCES)[number];

/**
 * Every change of a wallet's balances: `amount` is added to `balance`. A metered call is a `reserve` row (negative,
 * `state` reserved → charged | refunded), or two when daily credits pay part of it (the first, the daily part, is the
 * reservation, and names the tier's part in `reservation_id`); a refund adds a `refund` row pointing at its reserve
 * row. `tier` is the tier of the model used (what "use" counts); `balance` is what paid (daily credits pay for basic
 * and advance).
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
    /**
     * For a `reserve` row of daily credits: the end of the day they were taken from (the wallet's next daily renewal
     * then, moved with it when a change of time zone postpones it). A refund gives them back only to that day.
     */
    dailyUntil: timestamp('daily_until', { withTimezone: true }),
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

/**
 * The same use per UTC day (the day of each `wallet_usage` hour, in UTC), written by the same statement: "use over the
 * last 30 days" is summed from here (at most 30 rows a tier), and kept on the wallet (`recentDay` and the sums).
 */
export const walletUsageDays = pgTable(
  'wallet_usage_days',
  {
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    tier: text('tier', { enum: ['basic', 'advance', 'extraAdvance'] }).notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.walletId, t.day, t.tier] })],
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

/** A person's customer record at the payment provider, their one free trial, and their verified student address. */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id').unique(),
    /** Set once, atomically, when the person starts their free trial; never cleared once the trial started. */
    trialClaimedAt: timestamp('trial_claimed_at', { withTimezone: true }),
    /** The trial's checkout: if it expires unpaid, the trial is given back. */
    trialCheckoutId: text('trial_checkout_id'),
    /** The one checkout the person may pay: a new one expires it, so that no one pays twice. */
    openCheckoutId: text('open_checkout_id'),
    studentEmail: text('student_email'),
    studentVerifiedAt: timestamp('student_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One academic address gives student prices to one account.
    uniqueIndex('billing_customers_student_email_idx')
      .on(t.studentEmail)
      .where(sql`${t.studentVerifiedAt} IS NOT NULL`),
  ],
);

/**
 * The subscription that pays for a wallet: its latest one (an ended one stays, for "Renew"), as the payment provider
 * holds it (`source` stripe) or as a site admin gave it (`source` admin).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    walletId: uuid('wallet_id')
      .notNull()
      .unique()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['stripe', 'admin'] }).notNull(),
    stripeSubscriptionId: text('stripe_subscription_id').unique(),
    plan: text('plan', { enum: PAID_PLAN_IDS }).notNull(),
    duration: text('duration', { enum: PLAN_DURATIONS }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    student: boolean('student').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    promoCode: text('promo_code'),
    /** After a failed payment: the plan stays until then. */
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    /** The period whose allowance was last granted (a renewal grants once per period). */
    grantedPeriodStart: timestamp('granted_period_start', { withTimezone: true }),
    /** When the provider created the subscription: a newer live one replaces an older one, never the reverse. */
    providerCreatedAt: timestamp('provider_created_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_period_end_idx').on(t.currentPeriodEnd)],
);

/** Payment events applied, by the provider's event id: written in the transaction of the event's effect. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Links mailed to verify an academic address: stored hashed, single-use, expiring. */
export const studentVerifications = pgTable('student_verifications', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
