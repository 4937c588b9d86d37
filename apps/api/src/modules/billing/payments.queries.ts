import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Allowance, BasePlanId, PlanId } from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { raiseToAllowance } from './billing.queries.js';
import {
  billingCustomers,
  paymentEvents,
  studentVerifications,
  subscriptions,
  wallets,
} from '../../db/schema/index.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type CustomerRow = typeof billingCustomers.$inferSelect;

export async function findCustomer(db: Db | Tx, userId: string) {
  const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).limit(1);
  return row;
}

export async function findCustomerByStripeId(db: Db | Tx, stripeCustomerId: string) {
  const [row] = await db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.stripeCustomerId, stripeCustomerId))
    .limit(1);
  return row;
}

/** The person's customer row, made if missing. */
export async function ensureCustomer(db: Db, userId: string) {
  await db.insert(billingCustomers).values({ userId }).onConflictDoNothing();
  return (await findCustomer(db, userId))!;
}

/** Records the provider's customer id, unless another request recorded one first; returns the one that holds. */
export async function setStripeCustomer(db: Db, userId: string, stripeCustomerId: string) {
  await db
    .update(billingCustomers)
    .set({ stripeCustomerId })
    .where(and(eq(billingCustomers.userId, userId), isNull(billingCustomers.stripeCustomerId)));
  return (await findCustomer(db, userId))!.stripeCustomerId!;
}

/** Takes the person's one free trial: true for exactly one of any number of concurrent calls. */
export async function claimTrial(db: Db, userId: string, at: Date) {
  const rows = await db
    .update(billingCustomers)
    .set({ trialClaimedAt: at })
    .where(and(eq(billingCustomers.userId, userId), isNull(billingCustomers.trialClaimedAt)))
    .returning({ userId: billingCustomers.userId });
  return rows.length === 1;
}

/** Gives a trial back when no checkout could be opened for it (nothing was started). */
export async function releaseTrial(db: Db, userId: string, at: Date) {
  await db
    .update(billingCustomers)
    .set({ trialClaimedAt: null })
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.trialClaimedAt, at)));
}

/**
 * Records the checkout the person may pay now (and, for a trial, which checkout holds the trial); returns the one
 * it replaces, to be expired. The row is locked between the read and the write, so that of any number of
 * concurrent checkouts each replaces exactly the one recorded before it: every one but the last is handed back once.
 */
export async function setOpenCheckout(db: Db, userId: string, checkoutId: string, trialCheckoutId?: string) {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      SELECT open_checkout_id AS "openCheckoutId" FROM billing_customers
       WHERE user_id = ${userId}::uuid FOR UPDATE`)) as unknown as { rows: { openCheckoutId: string | null }[] };
    await tx
      .update(billingCustomers)
      .set({ openCheckoutId: checkoutId, ...(trialCheckoutId ? { trialCheckoutId } : {}) })
      .where(eq(billingCustomers.userId, userId));
    return result.rows[0]?.openCheckoutId ?? null;
  });
}

/** Puts back the checkout that `checkoutId` replaced, unless a newer one replaced it meanwhile. */
export async function restoreOpenCheckout(db: Db, userId: string, checkoutId: string, previousId: string) {
  await db
    .update(billingCustomers)
    .set({ openCheckoutId: previousId })
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.openCheckoutId, checkoutId)));
}

/** The trial held by an expired checkout comes back. */
export async function releaseTrialOf(tx: Tx, checkoutId: string) {
  await tx
    .update(billingCustomers)
    .set({ trialClaimedAt: null, trialCheckoutId: null })
    .where(eq(billingCustomers.trialCheckoutId, checkoutId));
}

export async function findSubscriptionByWallet(db: Db | Tx, walletId: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.walletId, walletId)).limit(1);
  return row;
}

/** Records an event id; false when it was already applied (or is being applied by a concurrent delivery). */
export async function recordEvent(tx: Tx, id: string, type: string) {
  const rows = await tx
    .insert(paymentEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length === 1;
}

export async function eventApplied(db: Db, id: string) {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id)).limit(1);
  return Boolean(row);
}

export type WalletLock = { id: string; userId: string | null; plan: PlanId; basePlan: BasePlanId; seats: number };

/** The wallet of a person, locked until the transaction ends (so that one subscription change applies at a time). */
export async function lockWalletOf(tx: Tx, userId: string): Promise<WalletLock | undefined> {
  const result = (await tx.execute(sql`
    SELECT id, user_id AS "userId", plan, base_plan AS "basePlan", seats FROM wallets
     WHERE user_id = ${userId}::uuid FOR UPDATE`)) as unknown as { rows: WalletLock[] };
  return result.rows[0];
}

export async function walletPlanOf(db: Db, userId: string) {
  const [row] = await db
    .select({ plan: wallets.plan, basePlan: wallets.basePlan, seats: wallets.seats })
    .from(wallets)
    .where(eq(wallets.userId, userId))
    .limit(1);
  return row;
}

export async function saveSubscription(
  tx: Tx,
  values: Omit<typeof subscriptions.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
) {
  const { walletId: _walletId, ...changes } = values;
  await tx
    .insert(subscriptions)
    .values(values)
    .onConflictDoUpdate({ target: subscriptions.walletId, set: { ...changes, updatedAt: new Date() } });
}

/**
 * Puts a wallet on `plan` with `seats`: each credit raised to at least the allowance (never lowered), each raise a
 * `grant` ledger row, in one statement; `monthlyRenewsAt` the next top-up.
 */
export async function grantPlan(
  tx: Tx,
  walletId: string,
  plan: PlanId,
  seats: number,
  allowance: Allowance,
  monthlyRenewsAt: Date | null,
  feature: string,
) {
  await raiseToAllowance(tx, walletId, allowance, {
    set: sql`plan = ${plan}, seats = ${seats}::int`,
    feature,
    monthlyRenewsAt,
  });
}

/** Puts a wallet on another plan within a paid period: `more` added to each credit (grant rows), nothing lowered. */
export async function changePlanWithin(tx: Tx, walletId: string, plan: PlanId, seats: number, more: Allowance) {
  await tx.execute(sql`
    WITH cur AS (SELECT id, user_id FROM wallets WHERE id = ${walletId}::uuid FOR UPDATE),
    changed AS (
      UPDATE wallets w SET plan = ${plan}, seats = ${seats}::int,
             daily_credit = daily_credit + ${more.dailyCredit}::int,
             basic_credit = basic_credit + ${more.basicCredit}::int,
             advance_credit = advance_credit + ${more.advanceCredit}::int,
             extra_advance_credit = extra_advance_credit + ${more.extraAdvanceCredit}::int,
             updated_at = now()
        FROM cur WHERE w.id = cur.id
    )
    INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, feature)
    SELECT cur.id, cur.user_id, g.b, g.n, 'grant', ${plan} FROM cur CROSS JOIN LATERAL (VALUES
      ('daily', ${more.dailyCredit}::int), ('basic', ${more.basicCredit}::int),
      ('advance', ${more.advanceCredit}::int), ('extraAdvance', ${more.extraAdvanceCredit}::int)) AS g(b, n)
     WHERE g.n > 0`);
}

/** Sets when a wallet's next monthly top-up comes (null: none; the next paid period refills it). */
export async function setMonthlyRenewal(tx: Tx, walletId: string, monthlyRenewsAt: Date | null) {
  await tx.update(wallets).set({ monthlyRenewsAt, updatedAt: new Date() }).where(eq(wallets.id, walletId));
}

/**
 * Returns a wallet to its base plan when what paid for more has ended: each credit lowered to at most the base
 * plan's allowance (never raised), each cut an `adjust` ledger row, in one statement.
 */
export async function endPlan(tx: Tx, walletId: string, allowance: Allowance, monthlyRenewsAt: Date | null) {
  await tx.execute(sql`
    WITH cur AS (
      SELECT id, user_id, base_plan, daily_credit, basic_credit, advance_credit, extra_advance_credit
        FROM wallets WHERE id = ${walletId}::uuid FOR UPDATE
    ), lowered AS (
      UPDATE wallets w SET plan = cur.base_plan, seats = 1,
             daily_credit = least(cur.daily_credit, ${allowance.dailyCredit}::int),
             basic_credit = least(cur.basic_credit, ${allowance.basicCredit}::int),
             advance_credit = least(cur.advance_credit, ${allowance.advanceCredit}::int),
             extra_advance_credit = least(cur.extra_advance_credit, ${allowance.extraAdvanceCredit}::int),
             monthly_renews_at = ${monthlyRenewsAt},
             updated_at = now()
        FROM cur WHERE w.id = cur.id
    )
    INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind, feature)
    SELECT cur.id, cur.user_id, g.b, g.n, 'adjust', 'plan ended' FROM cur CROSS JOIN LATERAL (VALUES
      ('daily', ${allowance.dailyCredit}::int - cur.daily_credit),
      ('basic', ${allowance.basicCredit}::int - cur.basic_credit),
      ('advance', ${allowance.advanceCredit}::int - cur.advance_credit),
      ('extraAdvance', ${allowance.extraAdvanceCredit}::int - cur.extra_advance_credit)) AS g(b, n)
     WHERE g.n < 0`);
}

/** Subscriptions whose plan should end by `now`: an admin grant past its end, a failed payment past its grace. */
export async function dueToEnd(db: Db, now: Date, graceDays: number) {
  const result = (await db.execute(sql`
    SELECT s.user_id AS "userId" FROM subscriptions s JOIN wallets w ON w.id = s.wallet_id
     WHERE w.plan IN ('pro', 'plus', 'team', 'byok')
       AND (s.status IN ('canceled', 'incomplete_expired', 'incomplete', 'paused')
         OR (s.source = 'admin' AND s.current_period_end <= ${now})
         OR (s.status IN ('past_due', 'unpaid') AND s.grace_until <= ${now})
         -- Stripe's news stopped coming (a disabled endpoint): the paid period and its grace are over.
         OR (s.source = 'stripe' AND s.current_period_end + make_interval(days => ${graceDays}::int) <= ${now}))
     LIMIT 500`)) as unknown as { rows: { userId: string }[] };
  return result.rows.map((r) => r.userId);
}

export async function saveStudentToken(db: Db, values: typeof studentVerifications.$inferInsert) {
  await db.insert(studentVerifications).values(values);
}

/** Uses a student link: single-use, unexpired, the same person's. Returns the verified address. */
export async function useStudentToken(db: Db, tokenHash: string, userId: string, now: Date) {
  const rows = await db
    .update(studentVerifications)
    .set({ usedAt: now })
    .where(
      and(
        eq(studentVerifications.tokenHash, tokenHash),
        eq(studentVerifications.userId, userId),
        isNull(studentVerifications.usedAt),
        sql`${studentVerifications.expiresAt} > ${now}`,
      ),
    )
    .returning({ email: studentVerifications.email });
  const email = rows[0]?.email;
  if (!email) return null;
  await db.insert(billingCustomers).values({ userId }).onConflictDoNothing();
  // One address, one account (a unique index): another account that verified it first keeps it.
  const taken = await db
    .update(billingCustomers)
    .set({ studentEmail: email, studentVerifiedAt: now })
    .where(
      and(
        eq(billingCustomers.userId, userId),
        sql`NOT EXISTS (SELECT 1 FROM billing_customers o WHERE o.student_email = ${email}
                         AND o.student_verified_at IS NOT NULL AND o.user_id <> ${userId}::uuid)`,
      ),
    )
    .returning({ userId: billingCustomers.userId })
    // Two accounts verifying one address at the same instant: the unique index lets one through.
    .catch((error: { code?: string; cause?: { code?: string } }) => {
      if (error.code === '23505' || error.cause?.code === '23505') return [];
      throw error;
    });
  return taken.length ? email : 'taken';
}
