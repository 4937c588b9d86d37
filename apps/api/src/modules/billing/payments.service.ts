import {
  BASE_PLAN_IDS,
  isPaidPlan,
  PAID_PLAN_IDS,
  PLAN_DURATIONS,
  priceLookupKey,
  SUBSCRIPTION_STATUSES,
  yearlySavingPercent,
  type Allowance,
  type CurrentPlan,
  type PaidPlanId,
  type PaymentPlans,
  type PlanDuration,
  type PlanId,
  type Promo,
  type SubscriptionAction,
  type SubscriptionStatus,
} from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import type { PlanCatalogue } from '../../lib/plan-catalogue.js';
import type { Mailer } from '../../providers/mail/index.js';
import { renderMail } from '../../providers/mail/templates.js';
import {
  ProviderError,
  type PaymentsProvider,
  type ProviderEvent,
  type ProviderSubscription,
} from '../../providers/payments/stripe.js';
import type { Caller } from './billing.service.js';
import * as q from './payments.queries.js';

/** Statuses in which a subscription's plan holds (past_due and unpaid only until their grace period ends). */
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid'];
const ENDED: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];
const STUDENT_LINK_HOURS = 24;
const DAY = 86_400_000;

/** A subscription as billing applies it: the provider's present state, or an admin's grant. */
type SubscriptionState = {
  source: 'stripe' | 'admin';
  stripeSubscriptionId: string | null;
  plan: PaidPlanId;
  duration: PlanDuration;
  student: boolean;
  status: SubscriptionStatus;
  quantity: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  trialEnd: Date | null;
  promoCode: string | null;
  providerCreatedAt: Date;
  /** Whether the provider's latest invoice is paid (admin grants: not asked). */
  latestInvoicePaid?: boolean | null;
};

const sameState = (a: ProviderSubscription, b: ProviderSubscription) =>
  a.status === b.status &&
  a.lookupKey === b.lookupKey &&
  a.quantity === b.quantity &&
  a.cancelAtPeriodEnd === b.cancelAtPeriodEnd &&
  a.currentPeriodStart.getTime() === b.currentPeriodStart.getTime() &&
  a.latestInvoicePaid === b.latestInvoicePaid;

/** `parley_team_year_student` → team, year, student; null for a price that is not one of ours. */
export function parseLookupKey(key: string | null) {
  const m = key?.match(/^parley_([a-z]+)_(month|year)(_student)?$/);
  if (!m || !(PAID_PLAN_IDS as readonly string[]).includes(m[1]!)) return null;
  return { plan: m[1] as PaidPlanId, duration: m[2] as PlanDuration, student: Boolean(m[3]) };
}

const addMonth = (from: Date) => {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

const scale = (a: Allowance, seats: number): Allowance => ({
  dailyCredit: a.dailyCredit * seats,
  basicCredit: a.basicCredit * seats,
  advanceCredit: a.advanceCredit * seats,
  extraAdvanceCredit: a.extraAdvanceCredit * seats,
});

/** Student addresses: `.edu` accepts any address under .edu; `uni.example` that domain and its subdomains. */
export function isAcademic(email: string, domains: string[]) {
  const host = email.split('@').pop()!.toLowerCase();
  return domains.some((d) => (d.startsWith('.') ? host.endsWith(d) : host === d || host.endsWith(`.${d}`)));
}

/**
 * Plans and payments: checkouts, subscription changes, and the provider's events, turned into wallet plans. An
 * entitlement comes only from the provider's state, read by the server (a verified event, or a retrieve) — never
 * from what a browser says. Each change of a wallet's plan happens with the wallet locked, in one transaction.
 */
export function createPaymentsService({
  db,
  provider,
  catalogue,
  trialDays,
  studentDomains,
  graceDays,
  publicUrl,
  mailer,
  log,
  clock = () => new Date(),
}: {
  db: Db;
  provider: PaymentsProvider | null;
  catalogue: PlanCatalogue;
  trialDays: number;
  studentDomains: string[];
  graceDays: number;
  publicUrl: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  clock?: () => Date;
}) {
  const allowanceOf = (plan: PlanId, seats: number) =>
    scale(catalogue.plans[plan].allowance, catalogue.plans[plan].perSeat ? seats : 1);

  function requireProvider() {
    if (!provider) throw new DomainError('PAYMENTS_DISABLED');
    return provider;
  }

  /** Provider failures as the person sees them: a refusal is a 4xx with its reason, an outage a 502. */
  async function providerCall<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ProviderError) {
        log.warn({ err: { message: error.message, kind: error.kind, param: error.param } }, 'payment provider refused');
        if (error.kind === 'unreachable') throw new DomainError('PAYMENT_PROVIDER_ERROR');
        const param = error.param ?? '';
        if (param.includes('promotion_code') || param.includes('discounts'))
          throw new DomainError('PROMO_CODE_INVALID');
        if (param.includes('price')) throw new DomainError('PLAN_NOT_ON_SALE');
        throw new DomainError('SUBSCRIPTION_ACTION_NOT_ALLOWED');
      }
      throw error;
    }
  }

  /** Prices by lookup key: Stripe's (what is charged), cached a minute; the catalogue's without Stripe. */
  let priceCache: { at: number; prices: Map<string, { id: string | null; amount: number; currency: string }> } | null =
    null;
  async function prices() {
    const now = clock().getTime();
    if (priceCache && now - priceCache.at < 60_000) return priceCache.prices;
    const keys = PAID_PLAN_IDS.flatMap((plan) =>
      PLAN_DURATIONS.flatMap((d) => [priceLookupKey(plan, d), priceLookupKey(plan, d, true)]),
    );
    const found = new Map<string, { id: string | null; amount: number; currency: string }>();
    let listed: Awaited<ReturnType<PaymentsProvider['prices']>> | null = null;
    if (provider) {
      try {
        listed = await provider.prices(keys);
      } catch (error) {
        // The plans stay visible while Stripe is out of reach (from the catalogue, not for sale) for half a minute.
        log.warn({ err: { message: (error as Error).message } }, 'could not read prices from the payment provider');
        priceCache = { at: now - 30_000, prices: cataloguePrices() };
        return priceCache.prices;
      }
      for (const [key, p] of listed) found.set(key, { id: p.id, amount: p.unitAmount, currency: p.currency });
    } else {
      for (const plan of PAID_PLAN_IDS) {
        for (const d of PLAN_DURATIONS) {
          const amount = catalogue.prices[plan][d];
          if (amount == null) continue;
          found.set(priceLookupKey(plan, d), { id: null, amount, currency: catalogue.currency });
          if (studentDomains.length) {
            const student = Math.round((amount * (100 - catalogue.studentDiscountPercent)) / 100);
            found.set(priceLookupKey(plan, d, true), { id: null, amount: student, currency: catalogue.currency });
          }
        }
      }
    }
    priceCache = { at: now, prices: found };
    return found;
  }

  function cataloguePrices() {
    const found = new Map<string, { id: string | null; amount: number; currency: string }>();
    for (const plan of PAID_PLAN_IDS) {
      for (const d of PLAN_DURATIONS) {
        const amount = catalogue.prices[plan][d];
        if (amount != null) found.set(priceLookupKey(plan, d), { id: null, amount, currency: catalogue.currency });
      }
    }
    return found;
  }

  async function plans(): Promise<PaymentPlans> {
    const found = await prices();
    const studentPricing = studentDomains.length > 0;
    return {
      paymentsEnabled: provider !== null,
      trialDays: provider && trialDays > 0 ? trialDays : null,
      studentPricing,
      plans: PAID_PLAN_IDS.map((id) => {
        const plan = catalogue.plans[id];
        const priceFor = (d: PlanDuration) => {
          const p = found.get(priceLookupKey(id, d));
          if (!p) return null;
          const student = studentPricing ? found.get(priceLookupKey(id, d, true)) : undefined;
          return { amount: p.amount, currency: p.currency, studentAmount: student?.amount ?? null };
        };
        const month = priceFor('month');
        const year = priceFor('year');
        return {
          id,
          perSeat: Boolean(plan.perSeat),
          ownKeys: Boolean(plan.ownKeys),
          gated: plan.gated,
          allowance: plan.allowance,
          prices: { month, year },
          yearlySavingPercent: month && year ? yearlySavingPercent({ month: month.amount, year: year.amount }) : 0,
        };
      }),
    };
  }

  /**
   * Whether a subscription pays for its plan now: a live status, an admin grant before its end, a failed payment
   * within its grace, and a Stripe one no later than its period's end plus the grace (in case Stripe's news stopped).
   */
  const isLive = (s: q.SubscriptionRow | undefined, now: Date) =>
    Boolean(
      s &&
      LIVE.includes(s.status) &&
      !(s.source === 'admin' && s.currentPeriodEnd && s.currentPeriodEnd <= now) &&
      !((s.status === 'past_due' || s.status === 'unpaid') && s.graceUntil && s.graceUntil <= now) &&
      !(s.source === 'stripe' && s.currentPeriodEnd && s.currentPeriodEnd.getTime() + graceDays * DAY <= now.getTime()),
    );

  async function currentPlan(caller: Pick<Caller, 'user' | 'wallet'>): Promise<CurrentPlan> {
    const now = clock();
    const [sub, customer, wallet] = await Promise.all([
      q.findSubscriptionByWallet(db, caller.wallet.id),
      q.findCustomer(db, caller.user.id),
      q.walletPlanOf(db, caller.user.id),
    ]);
    const live = isLive(sub, now);
    const actions: SubscriptionAction[] = [];
    if (provider) {
      // A plan a site admin gave is changed by a site admin.
      if (!(live && sub?.source === 'admin')) actions.push('upgrade');
      if (sub?.source === 'stripe' && live) {
        actions.push(sub.cancelAtPeriodEnd ? 'reactivate' : 'cancel', 'remove');
      }
      // Renew only what has ended; an unpaid one is settled in the portal (a second subscription would charge twice).
      if (sub?.source === 'stripe' && !live && ENDED.includes(sub.status)) actions.push('renew');
      if (customer?.stripeCustomerId) actions.push('portal');
    }
    return {
      plan: wallet?.plan ?? caller.wallet.plan,
      basePlan: wallet?.basePlan ?? 'free',
      paymentsEnabled: provider !== null,
      subscription: sub
        ? {
            plan: sub.plan,
            duration: sub.duration,
            status: sub.status,
            quantity: sub.quantity,
            source: sub.source,
            validFrom: sub.currentPeriodStart.toISOString(),
            currentPeriodEnd: sub.currentPeriodEnd?.toISOString() ?? null,
            daysRemaining: sub.currentPeriodEnd
              ? Math.max(0, Math.ceil((sub.currentPeriodEnd.getTime() - now.getTime()) / DAY))
              : null,
            cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
            trialEnd: sub.trialEnd?.toISOString() ?? null,
            promoCode: sub.promoCode,
            graceUntil: sub.graceUntil?.toISOString() ?? null,
            student: sub.student,
          }
        : null,
      trialAvailable: Boolean(provider && trialDays > 0 && !customer?.trialClaimedAt && !live),
      studentEmail: customer?.studentVerifiedAt ? customer.studentEmail : null,
      actions,
    };
  }

  /**
   * Applies a subscription's state to the person's wallet, with the wallet locked: the subscription row is saved, and
   * the wallet is put on the plan (a new period, plan or seat count grants the allowance) or back on its base plan.
   * A live subscription never replaces a newer live one; an ended one never comes back to life.
   */
  async function apply(userId: string, state: SubscriptionState, event?: { id: string; type: string }) {
    const now = clock();
    let stray: string | null = null;
    const applied = await db.transaction(async (tx) => {
      if (event && !(await q.recordEvent(tx, event.id, event.type))) return false;
      const wallet = await q.lockWalletOf(tx, userId);
      if (!wallet) return false;
      const existing = await q.findSubscriptionByWallet(tx, wallet.id);
      const sameOne =
        existing &&
        (state.source === 'stripe'
          ? existing.stripeSubscriptionId === state.stripeSubscriptionId
          : existing.source === 'admin');
      if (existing && !sameOne) {
        const existingLive = isLive(existing, now);
        const incomingLive = LIVE.includes(state.status);
        // Two live subscriptions at Stripe for one wallet were both sold (a checkout paid as another opened): the
        // wallet follows the newer, so the older one is stopped at its period's end instead of being charged again.
        if (
          existingLive &&
          incomingLive &&
          existing.source === 'stripe' &&
          state.source === 'stripe' &&
          existing.providerCreatedAt.getTime() !== state.providerCreatedAt.getTime()
        ) {
          const older = state.providerCreatedAt < existing.providerCreatedAt ? state : existing;
          if (!older.cancelAtPeriodEnd) stray = older.stripeSubscriptionId;
        }
        // An older subscription's late news does not replace the one that pays now; an admin never replaces a paid one.
        if (existingLive && (!incomingLive || state.providerCreatedAt < existing.providerCreatedAt)) return false;
        if (existingLive && existing.source === 'stripe' && state.source === 'admin') return false;
      }
      // A canceled subscription never comes back (an admin's new grant is a new start, not the old one).
      if (sameOne && state.source === 'stripe' && ENDED.includes(existing.status) && !ENDED.includes(state.status)) {
        return false;
      }

      const failing = state.status === 'past_due' || state.status === 'unpaid';
      const graceUntil = failing
        ? sameOne && existing.graceUntil
          ? existing.graceUntil
          : new Date(now.getTime() + graceDays * DAY)
        : null;
      const live = LIVE.includes(state.status) && (!graceUntil || graceUntil > now);
      const seats = catalogue.plans[state.plan].perSeat ? state.quantity : 1;
      const granted = sameOne ? existing.grantedPeriodStart : null;
      // Another billing interval restarts Stripe's billing cycle at once, paid for partly by what was left of the old
      // period: the period moves, but no newly paid one begins. The allowance already granted covers it (another plan
      // adds its difference below); the next cycle's invoice brings the next one.
      const intervalChanged = Boolean(
        live &&
        state.source === 'stripe' &&
        sameOne &&
        granted &&
        existing.duration !== state.duration &&
        existing.currentPeriodEnd &&
        state.currentPeriodStart < existing.currentPeriodEnd,
      );
      const newPeriod = !intervalChanged && granted?.getTime() !== state.currentPeriodStart.getTime();
      // A period is paid when its invoice is (a trial's is, at 0); an admin's grant needs none.
      const paid = state.source === 'admin' || state.latestInvoicePaid === true;
      const grantsPeriod = live && newPeriod && paid;
      await q.saveSubscription(tx, {
        walletId: wallet.id,
        userId,
        source: state.source,
        stripeSubscriptionId: state.stripeSubscriptionId,
        plan: state.plan,
        duration: state.duration,
        status: state.status,
        quantity: state.quantity,
        student: state.student,
        currentPeriodStart: state.currentPeriodStart,
        currentPeriodEnd: state.currentPeriodEnd,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
        trialEnd: state.trialEnd,
        promoCode: state.promoCode ?? (sameOne ? existing.promoCode : null),
        graceUntil,
        grantedPeriodStart: grantsPeriod || intervalChanged ? state.currentPeriodStart : (granted ?? null),
        providerCreatedAt: state.providerCreatedAt,
      });
      // Top-ups come monthly within what was paid (a yearly plan's months); a new paid period refills itself.
      let next: Date | null = addMonth(state.currentPeriodStart);
      while (next <= now) next = addMonth(next);
      if (state.currentPeriodEnd && next >= state.currentPeriodEnd) next = null;

      if (grantsPeriod) {
        await q.grantPlan(tx, wallet.id, state.plan, seats, allowanceOf(state.plan, seats), next, state.plan);
      } else if (live && !newPeriod && (existing!.plan !== state.plan || wallet.seats !== seats)) {
        // A change within a paid period (the provider charged the upgrade before it applied): each credit grows by
        // the difference of the allowances for what is left of the period; a downgrade takes nothing back, gives
        // nothing either.
        const before = allowanceOf(existing!.plan, catalogue.plans[existing!.plan].perSeat ? existing!.quantity : 1);
        const after = allowanceOf(state.plan, seats);
        const end = state.currentPeriodEnd?.getTime();
        const start = state.currentPeriodStart.getTime();
        const left = end && end > start ? Math.min(1, Math.max(0, (end - now.getTime()) / (end - start))) : 1;
        const more = (k: keyof Allowance) => Math.max(0, Math.ceil((after[k] - before[k]) * left));
        await q.changePlanWithin(tx, wallet.id, state.plan, seats, {
          dailyCredit: more('dailyCredit'),
          basicCredit: more('basicCredit'),
          advanceCredit: more('advanceCredit'),
          extraAdvanceCredit: more('extraAdvanceCredit'),
        });
      }
      if (intervalChanged) {
        // The top-ups follow the new cycle: monthly within a year, none within a month (its next invoice refills).
        await q.setMonthlyRenewal(tx, wallet.id, next);
      }
      if (!live && isPaidPlan(wallet.plan)) {
        // Whatever plan the wallet is on, nothing live pays for it any more.
        const base = catalogue.plans[wallet.basePlan];
        await q.endPlan(tx, wallet.id, base.allowance, base.monthlyRenewal ? addMonth(now) : null);
      }
      return true;
    });
    if (stray) await stopStray(userId, stray);
    return applied;
  }

  /** Stops a second subscription from renewing; a failure is logged (the wallet is right either way). */
  async function stopStray(userId: string, subscriptionId: string) {
    log.warn({ userId, subscriptionId }, 'a second live subscription: the older one stops at its period end');
    try {
      await provider?.setCancelAtPeriodEnd(subscriptionId, true);
    } catch (error) {
      log.warn({ err: { message: (error as Error).message }, subscriptionId }, 'could not stop a second subscription');
    }
  }

  /** The provider's subscription as billing applies it; null when its price is not one of ours. */
  function stateOf(s: ProviderSubscription): SubscriptionState | null {
    const parsed = parseLookupKey(s.lookupKey);
    if (!parsed) return null;
    const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(s.status)
      ? (s.status as SubscriptionStatus)
      : 'incomplete';
    return {
      source: 'stripe',
      stripeSubscriptionId: s.id,
      ...parsed,
      status,
      quantity: s.quantity,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      trialEnd: s.trialEnd,
      promoCode: s.promotionCodeId ? (s.metadata.promoCode ?? null) : null,
      latestInvoicePaid: s.latestInvoicePaid,
      providerCreatedAt: s.createdAt,
    };
  }

  async function customerFor(caller: Pick<Caller, 'user'>) {
    const stripe = requireProvider();
    const customer = await q.ensureCustomer(db, caller.user.id);
    if (customer.stripeCustomerId) return customer.stripeCustomerId;
    const id = await providerCall(() =>
      stripe.createCustomer({ userId: caller.user.id, email: caller.user.email, name: caller.user.name }),
    );
    return q.setStripeCustomer(db, caller.user.id, id);
  }

  async function priceFor(plan: PaidPlanId, duration: PlanDuration, student: boolean) {
    const p = (await prices()).get(priceLookupKey(plan, duration, student));
    if (!p?.id) throw new DomainError('PLAN_NOT_ON_SALE');
    return p.id;
  }

  async function validPromotion(code: string) {
    const stripe = requireProvider();
    const promotion = await providerCall(() => stripe.promotion(code));
    if (!promotion || !promotion.active) throw new DomainError('PROMO_CODE_INVALID');
    return promotion;
  }

  async function liveSubscription(caller: Pick<Caller, 'wallet'>) {
    const sub = await q.findSubscriptionByWallet(db, caller.wallet.id);
    return isLive(sub, clock()) ? sub : undefined;
  }

  /** Applies the newest of a customer's live subscriptions at Stripe. */
  async function applyFresh(userId: string, live: ProviderSubscription[]) {
    const newest = [...live].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    const state = newest && stateOf(newest);
    if (state) await apply(userId, state);
  }

  /**
   * Reads a subscription back after applying it and applies again if it moved meanwhile (another change or event
   * landed between the read and the write), so that the last word is Stripe's present state.
   */
  async function settle(userId: string, subscriptionId: string, applied: ProviderSubscription) {
    const stripe = requireProvider();
    let last = applied;
    for (let i = 0; i < 2; i++) {
      const now = await stripe.subscription(subscriptionId).catch(() => null);
      if (!now || sameState(now, last)) return;
      const state = stateOf(now);
      if (state) await apply(userId, state);
      last = now;
    }
  }

  async function openCheckout(
    caller: Pick<Caller, 'user' | 'wallet'>,
    input: {
      plan: PaidPlanId;
      duration: PlanDuration;
      quantity: number;
      promoCode?: string;
      student?: boolean;
      trial?: boolean;
    },
  ) {
    const stripe = requireProvider();
    if (input.quantity > 1 && !catalogue.plans[input.plan].perSeat) throw new DomainError('SEATS_ONLY_FOR_TEAM');
    if (await liveSubscription(caller)) throw new DomainError('ALREADY_SUBSCRIBED');
    const customer = await q.ensureCustomer(db, caller.user.id);
    if (input.student && !customer.studentVerifiedAt) throw new DomainError('STUDENT_NOT_VERIFIED');
    const priceId = await priceFor(input.plan, input.duration, Boolean(input.student));
    const promotion = input.promoCode ? await validPromotion(input.promoCode) : null;
    const customerId = await customerFor(caller);
    // Stripe is the truth about what this person pays for: a live subscription there (one whose news has not
    // arrived yet, or one still unpaid) is applied here, and no second one is sold.
    const atStripe = await providerCall(() => stripe.liveSubscriptions(customerId));
    if (atStripe.length) {
      await applyFresh(caller.user.id, atStripe);
      throw new DomainError('ALREADY_SUBSCRIBED');
    }
    const claimedAt = clock();
    if (input.trial) {
      if (trialDays <= 0) throw new DomainError('PLAN_NOT_ON_SALE');
      if (!(await q.claimTrial(db, caller.user.id, claimedAt))) throw new DomainError('TRIAL_ALREADY_USED');
    }
    try {
      const session = await providerCall(() =>
        stripe.createCheckout({
          customerId,
          userId: caller.user.id,
          priceId,
          quantity: input.quantity,
          ...(promotion ? { promotionCodeId: promotion.id } : {}),
          ...(input.trial ? { trialDays } : {}),
          // The code as typed, for the plan page (the provider holds the discount itself).
          metadata: {
            userId: caller.user.id,
            plan: input.plan,
            duration: input.duration,
            ...(promotion ? { promoCode: promotion.code } : {}),
          },
          successUrl: `${publicUrl}/paymentSuccess?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${publicUrl}/subscription`,
        }),
      );
      // Only the newest checkout can be paid: the one opened before is expired (a double click, another tab). Each
      // checkout replaces exactly one (the swap is atomic), so concurrent ones leave only the last payable.
      const previous = await q.setOpenCheckout(db, caller.user.id, session.id, input.trial ? session.id : undefined);
      if (previous && previous !== session.id) {
        try {
          await providerCall(() => stripe.expireCheckout(previous));
        } catch (error) {
          // The one before stays the one recorded; this one, never shown to the person, is withdrawn if possible.
          await q.restoreOpenCheckout(db, caller.user.id, session.id, previous);
          await stripe.expireCheckout(session.id).catch(() => undefined);
          throw error;
        }
      }
      return { url: session.url };
    } catch (error) {
      if (input.trial) await q.releaseTrial(db, caller.user.id, claimedAt);
      throw error;
    }
  }

  /** Changes the live subscription at the provider, then applies what the provider now holds. */
  async function changeAtProvider(
    caller: Pick<Caller, 'user' | 'wallet'>,
    change: (
      stripe: PaymentsProvider,
      sub: q.SubscriptionRow & { stripeSubscriptionId: string },
    ) => Promise<ProviderSubscription>,
  ) {
    const stripe = requireProvider();
    const sub = await liveSubscription(caller);
    if (!sub) throw new DomainError('NO_SUBSCRIPTION');
    if (sub.source !== 'stripe' || !sub.stripeSubscriptionId) throw new DomainError('SUBSCRIPTION_ACTION_NOT_ALLOWED');
    const updated = await providerCall(() =>
      change(stripe, sub as q.SubscriptionRow & { stripeSubscriptionId: string }),
    );
    const state = stateOf(updated);
    if (state) await apply(caller.user.id, { ...state, promoCode: state.promoCode ?? sub.promoCode });
    await settle(caller.user.id, updated.id, updated);
    return currentPlan(caller);
  }

  /** An admin's grant, ended now. */
  const grantEnded = (existing: q.SubscriptionRow): SubscriptionState => ({
    source: 'admin',
    stripeSubscriptionId: null,
    plan: existing.plan,
    duration: existing.duration,
    student: false,
    status: 'canceled',
    quantity: existing.quantity,
    currentPeriodStart: existing.currentPeriodStart,
    currentPeriodEnd: clock(),
    cancelAtPeriodEnd: false,
    trialEnd: null,
    promoCode: null,
    providerCreatedAt: existing.providerCreatedAt,
  });

  return {
    plans,
    currentPlan,
    subscribe: (
      caller: Caller,
      input: {
        plan: PaidPlanId;
        planDuration: PlanDuration;
        quantity: number;
        promoCode?: string | undefined;
        student?: boolean | undefined;
      },
    ) =>
      openCheckout(caller, {
        plan: input.plan,
        duration: input.planDuration,
        quantity: input.quantity,
        ...(input.promoCode ? { promoCode: input.promoCode } : {}),
        ...(input.student ? { student: true } : {}),
      }),

    freeTrial: (caller: Caller, input: { plan: PaidPlanId; planDuration: PlanDuration }) =>
      openCheckout(caller, { plan: input.plan, duration: input.planDuration, quantity: 1, trial: true }),

    /** Renew: a checkout for the plan of the subscription that ended. */
    async renew(caller: Caller) {
      const sub = await q.findSubscriptionByWallet(db, caller.wallet.id);
      if (!sub) throw new DomainError('NO_SUBSCRIPTION');
      if (isLive(sub, clock())) throw new DomainError('ALREADY_SUBSCRIBED');
      return openCheckout(caller, {
        plan: sub.plan,
        duration: sub.duration,
        quantity: sub.quantity,
        ...(sub.student ? { student: true } : {}),
      });
    },

    /** Upgrade, downgrade, another duration or seat count: the provider prorates. */
    async update(caller: Caller, input: { plan: PaidPlanId; planDuration: PlanDuration; quantity: number }) {
      if (input.quantity > 1 && !catalogue.plans[input.plan].perSeat) throw new DomainError('SEATS_ONLY_FOR_TEAM');
      const sub = await liveSubscription(caller);
      if (!sub) throw new DomainError('NO_SUBSCRIPTION');
      // A trial is tried as chosen; changing it waits for the first payment.
      if (sub.status === 'trialing') throw new DomainError('SUBSCRIPTION_ACTION_NOT_ALLOWED');
      const priceId = await priceFor(input.plan, input.planDuration, sub.student);
      if (sub.plan === input.plan && sub.duration === input.planDuration && sub.quantity === input.quantity) {
        return currentPlan(caller);
      }
      const newAmount = (await prices()).get(priceLookupKey(input.plan, input.planDuration, sub.student))!.amount;
      const monthly = (amount: number, interval: PlanDuration) => (interval === 'year' ? amount / 12 : amount);
      return changeAtProvider(caller, async (stripe, s) => {
        const current = await stripe.subscription(s.stripeSubscriptionId);
        if (!current) throw new ProviderError('subscription is gone', 'missing');
        // Paying more, or for another period, is charged now and applies once paid; paying less applies now, unrefunded.
        const upgrade =
          current.interval !== input.planDuration ||
          monthly(newAmount, input.planDuration) * input.quantity >
            monthly(current.unitAmount, current.interval) * current.quantity;
        return stripe.changeSubscription(s.stripeSubscriptionId, {
          itemId: current.itemId,
          priceId,
          quantity: input.quantity,
          upgrade,
        });
      });
    },

    cancel: (caller: Caller) =>
      changeAtProvider(caller, (stripe, s) => {
        if (s.cancelAtPeriodEnd) throw new DomainError('SUBSCRIPTION_ACTION_NOT_ALLOWED');
        return stripe.setCancelAtPeriodEnd(s.stripeSubscriptionId, true);
      }),

    reactivate: (caller: Caller) =>
      changeAtProvider(caller, (stripe, s) => {
        if (!s.cancelAtPeriodEnd) throw new DomainError('SUBSCRIPTION_ACTION_NOT_ALLOWED');
        return stripe.setCancelAtPeriodEnd(s.stripeSubscriptionId, false);
      }),

    /** Ends the subscription now, without refund: the rest of the period's credits are cut to the base plan's. */
    remove: (caller: Caller) => changeAtProvider(caller, (stripe, s) => stripe.cancelNow(s.stripeSubscriptionId)),

    async portal(caller: Caller) {
      const stripe = requireProvider();
      const customer = await q.findCustomer(db, caller.user.id);
      if (!customer?.stripeCustomerId) throw new DomainError('NO_SUBSCRIPTION');
      return { url: await providerCall(() => stripe.portal(customer.stripeCustomerId!, `${publicUrl}/setting/plan`)) };
    },

    /** What a code gives, as Stripe validates it now (the checkout validates it again). */
    async promo(code: string): Promise<Promo> {
      const p = await validPromotion(code);
      return {
        code: p.code,
        percentOff: p.percentOff,
        amountOff: p.amountOff,
        currency: p.currency,
        duration: p.duration,
        durationInMonths: p.durationInMonths,
      };
    },

    /** Mails a single-use link to an academic address; the signed-in person opens it to get student prices. */
    async requestStudent(caller: Caller, email: string) {
      if (!studentDomains.length || !isAcademic(email, studentDomains)) {
        throw new DomainError('STUDENT_DOMAIN_NOT_ACCEPTED');
      }
      const token = newSecret();
      await q.saveStudentToken(db, {
        tokenHash: hashSecret(token),
        userId: caller.user.id,
        email: email.toLowerCase(),
        expiresAt: new Date(clock().getTime() + STUDENT_LINK_HOURS * 3_600_000),
      });
      const link = `${publicUrl}/subscription?studentToken=${encodeURIComponent(token)}`;
      await mailer.send(
        renderMail(caller.user.language, 'student', email, { name: caller.user.name, link, hours: STUDENT_LINK_HOURS }),
      );
    },

    async confirmStudent(caller: Caller, token: string) {
      const email = await q.useStudentToken(db, hashSecret(token), caller.user.id, clock());
      if (!email) throw new DomainError('INVALID_TOKEN');
      if (email === 'taken') throw new DomainError('STUDENT_EMAIL_IN_USE');
      return currentPlan(caller);
    },

    /**
     * After checkout, on the success page: the provider is asked whether this person's session was paid. A forged or
     * foreign session id grants nothing (404); an unpaid one, nothing yet.
     */
    async confirmCheckout(caller: Caller, sessionId: string) {
      const stripe = requireProvider();
      const customer = await q.findCustomer(db, caller.user.id);
      const session = await providerCall(() => stripe.checkout(sessionId));
      if (!session || !customer?.stripeCustomerId || session.customerId !== customer.stripeCustomerId) {
        throw new DomainError('CHECKOUT_NOT_FOUND');
      }
      if (session.status === 'complete' && session.paid && session.subscriptionId) {
        const sub = await providerCall(() => stripe.subscription(session.subscriptionId!));
        const state = sub && stateOf(sub);
        if (state) await apply(caller.user.id, state);
      }
      return currentPlan(caller);
    },

    /** Verifies a webhook's signature; throws WEBHOOK_SIGNATURE_INVALID (400) for anything not signed by Stripe. */
    verifyEvent(rawBody: Buffer, signature: string | undefined): ProviderEvent {
      const stripe = requireProvider();
      try {
        return stripe.verifyEvent(rawBody, signature);
      } catch {
        throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
      }
    },

    /**
     * Applies a verified event at most once: the subscription it is about is read back from the provider (its state
     * now, so events out of order cannot regress it), then applied with the event id, in one transaction. A failure
     * throws, so the provider delivers the event again.
     */
    async handleEvent(event: ProviderEvent) {
      const stripe = requireProvider();
      if (await q.eventApplied(db, event.id)) return 'duplicate';
      if (event.type === 'checkout.session.expired') {
        // An abandoned trial checkout gives the trial back.
        await db.transaction(async (tx) => {
          if (await q.recordEvent(tx, event.id, event.type)) await q.releaseTrialOf(tx, event.objectId);
        });
        return 'applied';
      }
      const handled =
        event.type === 'checkout.session.completed' ||
        event.type.startsWith('customer.subscription.') ||
        event.type === 'invoice.paid' ||
        event.type === 'invoice.payment_failed';
      if (!handled) {
        await db.transaction((tx) => q.recordEvent(tx, event.id, event.type));
        return 'ignored';
      }
      // An event Parley handles but cannot place is not recorded: a later delivery may have what it needs.
      if (!event.subscriptionId || !event.customerId) return 'ignored';
      const customer = await q.findCustomerByStripeId(db, event.customerId);
      const sub = await stripe.subscription(event.subscriptionId);
      const state = sub && customer && sub.customerId === event.customerId ? stateOf(sub) : null;
      if (!customer || !state) {
        await db.transaction((tx) => q.recordEvent(tx, event.id, event.type));
        return 'ignored';
      }
      const applied = await apply(customer.userId, state, event);
      if (applied) await settle(customer.userId, sub!.id, sub!);
      return applied ? 'applied' : 'not applied';
    },

    /** A site admin's grant (the CLI now): the plan until `until` (no end when null), without payment. */
    async assignPlan(
      userId: string,
      input: { plan: PaidPlanId; duration: PlanDuration; seats: number; until: Date | null },
    ) {
      const now = clock();
      const applied = await apply(userId, {
        source: 'admin',
        stripeSubscriptionId: null,
        plan: input.plan,
        duration: input.duration,
        student: false,
        status: 'active',
        quantity: input.seats,
        currentPeriodStart: now,
        currentPeriodEnd: input.until,
        cancelAtPeriodEnd: false,
        trialEnd: null,
        promoCode: null,
        providerCreatedAt: now,
      });
      // Refused (under the wallet's lock) when a paid subscription is live.
      if (!applied) throw new DomainError('ALREADY_SUBSCRIBED');
    },

    /** Ends an admin's grant now (a paid subscription is canceled by its owner or at the provider). */
    async removeAssignedPlan(userId: string) {
      const existing = await db.transaction(async (tx) => {
        const wallet = await q.lockWalletOf(tx, userId);
        return wallet && q.findSubscriptionByWallet(tx, wallet.id);
      });
      if (!existing || existing.source !== 'admin' || !isLive(existing, clock())) {
        throw new DomainError('NO_SUBSCRIPTION');
      }
      await apply(userId, grantEnded(existing));
    },

    /**
     * A site admin ends a person's plan now, whatever gave it: a paid subscription is canceled at the provider and
     * applied as the provider then holds it; an admin's grant ends here. NO_SUBSCRIPTION when nothing is live.
     */
    async removePlanOf(payer: Pick<Caller, 'user' | 'wallet'>) {
      const sub = await liveSubscription(payer);
      if (!sub) throw new DomainError('NO_SUBSCRIPTION');
      if (sub.source === 'admin') await apply(payer.user.id, grantEnded(sub));
      else await changeAtProvider(payer, (stripe, s) => stripe.cancelNow(s.stripeSubscriptionId));
      return currentPlan(payer);
    },

    /** Ends what is due: admin grants past their end, failed payments past their grace. */
    async endDue() {
      const now = clock();
      let ended = 0;
      for (const userId of await q.dueToEnd(db, now, graceDays)) {
        const done = await db.transaction(async (tx) => {
          const wallet = await q.lockWalletOf(tx, userId);
          const sub = wallet && (await q.findSubscriptionByWallet(tx, wallet.id));
          if (!wallet || !sub || !isPaidPlan(wallet.plan) || isLive(sub, now)) return false;
          const base = catalogue.plans[wallet.basePlan];
          await q.endPlan(tx, wallet.id, base.allowance, base.monthlyRenewal ? addMonth(now) : null);
          return true;
        });
        if (done) ended++;
      }
      if (ended) log.info({ ended }, 'ended plans');
      return ended;
    },

    /** The products and prices of the catalogue that Stripe does not have yet (by lookup key), created. */
    async syncCatalogue() {
      const stripe = requireProvider();
      const wanted = PAID_PLAN_IDS.flatMap((plan) =>
        PLAN_DURATIONS.flatMap((interval) => {
          const amount = catalogue.prices[plan][interval];
          if (amount == null) return [];
          const productName = `Parley ${plan[0]!.toUpperCase()}${plan.slice(1)}`;
          const base = { productName, currency: catalogue.currency, interval };
          const student = Math.round((amount * (100 - catalogue.studentDiscountPercent)) / 100);
          return [
            { ...base, lookupKey: priceLookupKey(plan, interval), unitAmount: amount },
            { ...base, lookupKey: priceLookupKey(plan, interval, true), unitAmount: student },
          ];
        }),
      );
      priceCache = null;
      return stripe.sync(wanted);
    },

    /** Base plans are what accounts grants (sign-up channels); kept here for the CLI's checks. */
    basePlans: BASE_PLAN_IDS,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
