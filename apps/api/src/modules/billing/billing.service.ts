import {
  CAPABILITIES,
  FREE_DAILY_USES,
  GATED_CAPABILITIES,
  PLANS,
  type Capability,
  type Credits,
  type Plan,
  type PlanId,
  type Profile,
  type Tier,
  type Usage,
} from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import { whileUnavailable } from '../../db/unavailable.js';
import { DomainError } from '../../lib/errors.js';
import { lastDays, localDate, nextLocalMidnight, utcDate, zoneOrUtc } from '../../lib/time.js';
import type { Account, AccountsBilling, SessionRef, UserRow } from '../accounts/index.js';
import type { Membership, OrganizationsBilling } from '../organizations/index.js';
import * as q from './billing.queries.js';

/** A reservation settles exactly once: charge when output was produced, refund when the request failed before any. */
export type Reservation = { charge(): Promise<void>; refund(): Promise<void>; readonly metered: boolean };

export const NOT_METERED: Reservation = { metered: false, charge: async () => {}, refund: async () => {} };

/** The balances that pay for a caller's calls: a person's own (an organization's, once organizations arrive). */
export type Wallet = {
  id: string;
  /** Whose wallet it is (for an organization's, its owner: the person whose plan pays). */
  ownerId: string | null;
  /** The organization it pays for, if any. */
  organizationId: string | null;
  plan: PlanId;
  /** Seats paid for (Team): the plan's allowance is per seat. */
  seats: number;
  credits: Credits;
  dailyRenewsAt: Date;
  monthlyRenewsAt: Date | null;
};

/**
 * Who is calling, and who pays: resolved once per request (plugins/caller.ts) and handed to every route and service.
 * `organization` is the organization the call is made in and the member's role there; none until organizations arrive.
 */
export type Caller = {
  user: Account;
  session: SessionRef;
  role: Account['role'];
  organization: Membership | null;
  wallet: Wallet;
  /** Credits used over the last 30 days, when the route asked for them with the caller (the profile). */
  recentUse?: q.UseTotals;
};

/** What paying needs to know of a caller. */
export type Payer = { user: Pick<Account, 'id' | 'timezone'>; wallet: Pick<Wallet, 'id' | 'plan'> };

/**
 * One metered call. `credits`: what one unit costs (1 unless said); `units`: how many the call may make (images), each
 * reserved before the call and charged only if made (1 unless said).
 */
export type Use = {
  capability: Capability;
  tier: Tier;
  keySource: 'own' | 'server';
  feature?: string;
  credits?: number;
  units?: number;
};

/** A wallet's row (its balances as columns) as the rest of the API sees it. */
export const toWallet = (row: q.WalletRef): Wallet => ({
  id: row.id,
  ownerId: row.userId,
  organizationId: row.organizationId,
  plan: row.plan,
  seats: row.seats,
  credits: {
    dailyCredit: row.dailyCredit,
    basicCredit: row.basicCredit,
    advanceCredit: row.advanceCredit,
    extraAdvanceCredit: row.extraAdvanceCredit,
  },
  dailyRenewsAt: row.dailyRenewsAt,
  monthlyRenewsAt: row.monthlyRenewsAt,
});

const monthFrom = (now: Date) => {
  const next = new Date(now);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/**
 * Billing owns the wallets and their ledger, and is the one way to spend: `metered` reserves before a provider is
 * called and settles once. `db` is the main pool; `ledger` the one for the ledger's hot statements (decision 012).
 * `clock` is injected so that tests can move time.
 */
export function createBillingService({
  db,
  ledger,
  log,
  clock = () => new Date(),
  plans = PLANS,
}: {
  db: Db;
  ledger: Db;
  log: FastifyBaseLogger;
  clock?: () => Date;
  /** Every plan's allowance and rules (the server's catalogue: the contract's defaults, changed by PLANS_FILE). */
  plans?: Record<PlanId, Plan>;
}) {
  const dailyAllowance = (plan: PlanId, seats: number) =>
    plans[plan].allowance.dailyCredit * (plans[plan].perSeat ? seats : 1);
  const reservation = (ledgerId: string): Reservation => {
    // The first of charge or refund wins; later calls wait for it. Each statement only changes a reservation still
    // pending, so a retry after a lost answer (database out of reach for a moment) is harmless.
    let settling: Promise<void> | null = null;
    const settle = (fn: (db: Db, id: string) => Promise<void>) => () =>
      (settling ??= whileUnavailable(() => fn(ledger, ledgerId)));
    return { metered: true, charge: settle(q.chargeReservation), refund: settle(q.refundReservation) };
  };

  /** Time zones PostgreSQL knows (its data and Node's can differ): days are counted in UTC for the others. */
  const knownZones = new Map<string, Promise<boolean>>();
  const sqlZone = async (timezone: string) => {
    const zone = zoneOrUtc(timezone);
    if (!knownZones.has(zone)) knownZones.set(zone, q.knowsTimeZone(db, zone));
    return (await knownZones.get(zone)) ? zone : 'UTC';
  };

  /** Due wallets' daily credits back to their plan's allowance, and their next renewal at the next local midnight. */
  const renewDaily = (tx: Tx, now: Date, due: Awaited<ReturnType<typeof q.dueForDailyRenewal>>) =>
    q.renewDaily(
      tx,
      now,
      due.map((w) => ({
        id: w.id,
        allowance: dailyAllowance(w.plan, w.seats),
        next: nextLocalMidnight(now, w.timezone),
      })),
    );

  /**
   * Renews one wallet's daily credits now if their renewal is due: its owner's midnight has passed and the renewal
   * job (every CREDIT_RENEWAL_SECONDS) has not come by yet. Someone renewing it meanwhile is waited for.
   */
  async function renewIfDue(walletId: string, now = clock()) {
    await db.transaction(async (tx) => renewDaily(tx, now, await q.dueForDailyRenewal(tx, now, 1, walletId)));
  }

  async function reserve(payer: Payer, tier: Tier, feature: string, credits = 1) {
    const now = clock();
    const take = () => q.reserveCredits(ledger, payer.wallet.id, payer.user.id, tier, credits, feature, now);
    // A wallet due for its daily renewal is not spent from until it is renewed (see q.reserveCredits): renewed here,
    // then asked again.
    let taken = await take();
    if (!taken.id && taken.due) {
      await renewIfDue(payer.wallet.id, now);
      taken = await take();
    }
    const ledgerId = taken.id;
    if (!ledgerId) {
      // Said with the refusal: what the call needed and what the wallet has for it (the person's own wallet only).
      const available = await q.availableFor(ledger, payer.wallet.id, payer.user.id, tier).catch(() => null);
      throw new DomainError('OUT_OF_CREDITS', available === null ? {} : { tier, needed: credits, available });
    }
    return reservation(ledgerId);
  }

  /**
   * The free tier's daily use of a gated capability, taken for a call; `release` gives it back. Counted in the paying
   * wallet's day, which ends at its next daily renewal (see q.takeFeatureUse), not in the person's today: a change of
   * time zone would otherwise be a fresh day of uses.
   */
  async function takeGate(payer: Payer, capability: Capability) {
    if (!CAPABILITIES[capability].gated || !plans[payer.wallet.plan].gated) return null;
    const now = clock();
    const take = () => q.takeFeatureUse(db, payer.wallet.id, payer.user.id, capability, now, FREE_DAILY_USES);
    // A wallet due for its daily renewal is still in yesterday's day: renewed first (as `reserve` does), then asked again.
    let taken = await take();
    if (taken.due) {
      await renewIfDue(payer.wallet.id, now);
      taken = await take();
    }
    const { count, day } = taken;
    if (count === null || day === null) throw new DomainError('DAILY_LIMIT_REACHED', { limit: FREE_DAILY_USES });
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await q.giveBackFeatureUse(db, payer.user.id, capability, day);
      },
    };
  }

  /** The wallet of an account, opened now if it has none (one made before wallets existed, or by hand). */
  async function walletFor(tx: Tx, user: Pick<UserRow, 'id' | 'timezone' | 'earlyBird' | 'appDeal'>) {
    const existing = await q.findWalletByUser(tx, user.id);
    if (existing) return existing;
    const plan: PlanId = user.appDeal ? 'appDeal' : user.earlyBird ? 'earlyBird' : 'free';
    await openWallet(tx, user, plan);
    return (await q.findWalletByUser(tx, user.id))!;
  }

  async function openWallet(tx: Tx, user: Pick<UserRow, 'id' | 'timezone'>, plan: PlanId) {
    const now = clock();
    await q.openWallet(tx, {
      userId: user.id,
      plan,
      allowance: plans[plan].allowance,
      dailyRenewsAt: nextLocalMidnight(now, user.timezone),
      monthlyRenewsAt: plans[plan].monthlyRenewal ? monthFrom(now) : null,
    });
  }

  /** Credits used over the last 30 days (today included, in the person's time zone), by day and by model tier. */
  async function usageDays(payer: Payer, now: Date) {
    const zone = await sqlZone(payer.user.timezone);
    const dates = lastDays(now, zone, 30);
    const since = new Date(now.getTime() - 31 * 86400_000);
    const rows = await q.usageByDay(db, payer.wallet.id, since, zone);
    const days = dates.map((date) => ({ date, basic: 0, advance: 0, extraAdvance: 0 }));
    const byDate = new Map(days.map((d) => [d.date, d]));
    for (const row of rows) {
      const day = byDate.get(row.day);
      if (day) day[row.tier] += row.used;
    }
    const totals = { basic: 0, advance: 0, extraAdvance: 0 };
    for (const d of days) {
      totals.basic += d.basic;
      totals.advance += d.advance;
      totals.extraAdvance += d.extraAdvance;
    }
    return { days, totals };
  }

  /** Today in UTC (YYYY-MM-DD): "use over the last 30 days" is this day and the 29 before it. */
  const utcToday = () => utcDate(clock());

  async function profileCredits(who: { user: Account; wallet?: Wallet; recentUse?: q.UseTotals }) {
    const wallet = who.wallet ?? toWallet(await walletFor(db, who.user));
    const totals = who.recentUse ?? (await q.recentUse(db, wallet.id, utcToday()));
    const credits: Pick<Profile, 'credits' | 'basicUse' | 'advanceUse' | 'extraAdvanceUse' | 'monthlyUse'> = {
      credits: wallet.credits,
      basicUse: totals.basic,
      advanceUse: totals.advance,
      extraAdvanceUse: totals.extraAdvance,
      monthlyUse: totals.basic + totals.advance + totals.extraAdvance,
    };
    return credits;
  }

  /**
   * A channel's upgrade (`plan`: early bird, app deal): each credit raised to at least its allowance. The wallet's base
   * plan becomes the best the account's channels give (the app deal is for life: an early-bird upgrade after it does
   * not take it away, nor its monthly top-ups). A paid plan in force keeps its own top-ups (see q.changePlan).
   */
  async function changePlan(tx: Tx, user: Pick<UserRow, 'id' | 'timezone' | 'earlyBird' | 'appDeal'>, plan: PlanId) {
    const wallet = await walletFor(tx, user);
    const base: PlanId = user.appDeal ? 'appDeal' : plan;
    await q.changePlan(
      tx,
      wallet.id,
      base,
      plans[plan].allowance,
      plans[base].monthlyRenewal ? (wallet.monthlyRenewsAt ?? monthFrom(clock())) : null,
      plan,
    );
  }

  /**
   * Daily credits renew at midnight in the new zone, but never earlier than they would have: hopping time zones
   * must not renew them again and again.
   */
  const timezoneChanged = (user: Pick<UserRow, 'id' | 'timezone'>) =>
    q.postponeDailyRenewal(db, user.id, nextLocalMidnight(clock(), user.timezone));

  /** What accounts needs of billing: wallets opened and plans changed with the account, the profile's credits. */
  const forAccounts: AccountsBilling = { openWallet, changePlan, timezoneChanged, profileCredits };

  /** What organizations needs of billing: the owner's wallet pays for the organization; members spend from it. */
  const forOrganizations: OrganizationsBilling = {
    async ownPlan(tx, owner) {
      const wallet = await walletFor(tx, owner);
      return { plan: wallet.plan, seats: wallet.seats };
    },
    async linkOwnerWallet(tx, organizationId, owner) {
      const wallet = await walletFor(tx, owner);
      if (!(await q.linkWalletToOrganization(tx, wallet.id, organizationId))) return false;
      return q.addWalletMember(tx, organizationId, owner.id, clock());
    },
    async plansOf(organizationIds, tx) {
      const rows = await q.organizationWallets(tx ?? db, organizationIds);
      return new Map(rows.map((r) => [r.organizationId, { plan: r.plan, seats: r.seats }]));
    },
    async memberJoined(tx, organizationId, userId) {
      await q.addWalletMember(tx, organizationId, userId, clock());
    },
    memberLeft: (tx, organizationId, userId) => q.removeWalletMember(tx, organizationId, userId),
    async setMemberLimit(tx, organizationId, userId, limit) {
      return q.setWalletMemberLimit(tx, organizationId, userId, limit);
    },
    async memberUse(organizationId) {
      const now = clock();
      const rows = await q.walletMembersOf(db, organizationId, now);
      return {
        month: now.toISOString().slice(0, 7),
        members: new Map(rows.map((r) => [r.userId, { limit: r.limit, used: r.used }])),
      };
    },
    organizationClosed: (tx, organizationId) => q.unlinkOrganization(tx, organizationId),
  };

  return {
    forAccounts,
    forOrganizations,

    /**
     * Who pays for the caller's own plan: their own wallet. A member of an organization spends from its wallet, but
     * buys, changes and cancels only their own plan (an organization's plan is its owner's).
     */
    async ownPayer<C extends Pick<Caller, 'user' | 'wallet'>>(caller: C): Promise<C> {
      if (caller.wallet.ownerId === caller.user.id) return caller;
      return { ...caller, wallet: toWallet(await walletFor(db, caller.user)) };
    },

    /** The caller of a verified session: its wallet, opened now if the account has none yet. */
    async callerOf(
      user: Account,
      session: SessionRef,
      found: { wallet: q.WalletRef | null; organization?: Membership | null; recentUse?: q.UseTotals | undefined },
    ): Promise<Caller> {
      let row: q.WalletRef | undefined = found.wallet ?? undefined;
      // Its daily renewal due (the job has not come by yet): renewed now, so that what is shown and spent is today's.
      if (row && row.dailyRenewsAt <= clock()) {
        await renewIfDue(row.id);
        row = await q.findWallet(db, row.id);
      }
      const wallet = toWallet(row ?? (await walletFor(db, user)));
      // No object spread on this path (see toSessionWithWallet in billing.queries.ts).
      const caller: Caller = { user, session, role: user.role, organization: found.organization ?? null, wallet };
      if (found.wallet && found.recentUse) caller.recentUse = found.recentUse;
      return caller;
    },

    /**
     * The session of a token with its user and wallet, in one statement (for AuthService.authenticateWith); with
     * `withRecentUse`, also the credits used over the last 30 days (the profile's numbers), in the same statement.
     */
    async sessionWithWallet(tokenHash: string, withRecentUse = false) {
      const found = withRecentUse
        ? await q.findSessionWithWalletAndUse(db, tokenHash, utcToday())
        : await q.findSessionWithWallet(db, tokenHash);
      return {
        found,
        wallet: found?.wallet ?? null,
        organization: found?.organization ?? null,
        recentUse: found?.recentUse,
      };
    },

    /**
     * Reads the session of `tokenHash` with its user and, if the session is live at `now`, reserves one credit from
     * their wallet, in one round trip (see q.reserveForSession): the chat turn's hot path. `reservation` is
     * null when none was made; the caller still checks the session. With `also` (a statement of
     * `sessionReserveWith` and its values), that statement does its own work too, and its row is `also`.
     */
    async reserveForSession<E extends object = object>(
      tokenHash: string,
      tier: Tier,
      feature: string,
      now: Date,
      also?: { statements: q.SessionReserveWith<E>; values: unknown[] },
    ) {
      let taken = await q.reserveForSession(ledger, tokenHash, tier, 1, feature, now, also);
      const row = taken.row;
      // Refused because the wallet is due for its daily renewal (see `reserve`): renewed, and asked once more. What
      // `also` did stands (its gate held, or nothing would have been tried); the second statement only reserves.
      if (taken.walletId && !taken.ledgerId && taken.due) {
        await renewIfDue(taken.walletId, now);
        taken = await q.reserveForSession(ledger, tokenHash, tier, 1, feature, now);
      }
      const { found, ledgerId } = taken;
      return { found, reservation: ledgerId ? reservation(ledgerId) : null, also: row };
    },

    /**
     * The one way to spend. Reserves (the free tier's daily use of a gated capability, then a credit) before `run`
     * calls a provider, and settles once: charged when `run` returns (unless `produced` says it produced nothing;
     * with `units`, only the `unitsMade` are charged and the others refunded),
     * refunded when it throws. A call on the person's own key is neither metered nor gated.
     */
    async metered<T>(
      payer: Payer,
      use: Use,
      run: () => Promise<T>,
      options: { produced?: (result: T) => boolean; unitsMade?: (result: T) => number } = {},
    ): Promise<T> {
      if (use.keySource === 'own') return run();
      const units = use.units ?? 1;
      const gate = await takeGate(payer, use.capability);
      // One reservation per unit, so that what was not made is refunded by the same one-shot statements.
      const reserved: Reservation[] = [];
      try {
        for (let i = 0; i < units; i++)
          reserved.push(await reserve(payer, use.tier, use.feature ?? use.capability, use.credits ?? 1));
      } catch (error) {
        await Promise.all([...reserved.map((r) => r.refund()), gate?.release()]);
        if (reserved.length > 0 && error instanceof DomainError && typeof error.params.needed === 'number') {
          // Said for the whole call: the units already reserved (now given back) were there too.
          const each = use.credits ?? 1;
          throw new DomainError('OUT_OF_CREDITS', {
            ...error.params,
            needed: units * each,
            available: Number(error.params.available) + reserved.length * each,
          });
        }
        throw error;
      }
      let result: T;
      try {
        result = await run();
      } catch (error) {
        await Promise.all([...reserved.map((r) => r.refund()), gate?.release()]);
        throw error;
      }
      const made =
        options.produced && !options.produced(result)
          ? 0
          : Math.max(0, Math.min(units, options.unitsMade ? options.unitsMade(result) : units));
      await Promise.all([
        ...reserved.map((r, i) => (i < made ? r.charge() : r.refund())),
        made === 0 ? gate?.release() : undefined,
      ]);
      return result;
    },

    /** A new account's wallet, holding its plan's allowance; in the transaction that creates the account. */
    openWallet,

    /** Moves an account's wallet to `plan`: no credit is lowered, each raised to at least the plan's allowance. */
    changePlan,

    /**
     * Renews what is due at `now`: daily credits of every wallet whose owner's midnight has passed (back to the
     * plan's daily allowance; next renewal at the next midnight there), and the monthly top-up of plans that renew
     * without payment. Safe to run on several instances at once. Returns how many wallets were renewed.
     */
    async renewDue(now = clock()) {
      let daily = 0;
      for (;;) {
        const renewed = await db.transaction(async (tx) => {
          const due = await q.dueForDailyRenewal(tx, now, 500);
          return { found: due.length, renewed: await renewDaily(tx, now, due) };
        });
        daily += renewed.renewed;
        if (renewed.found < 500) break;
      }
      const monthly = await q.renewMonthly(db, now, plans);
      if (daily || monthly) log.info({ daily, monthly }, 'renewed credits');
      return { daily, monthly };
    },

    /**
     * Refunds reservations left pending by a process that stopped mid-request. No request holds a reservation longer
     * than its provider timeout, so anything older than `olderThanSeconds` (well past it) can only be such a leftover.
     */
    sweepStale: (olderThanSeconds: number) => q.refundStaleReservations(ledger, olderThanSeconds),

    /** The credits and the last 30 days of use a profile shows (monthlyUse is their sum). */
    profileCredits,

    /** The dashboard's numbers: credits, when they come back, 30 days of use, and the free tier's uses left today. */
    async usage(caller: Caller): Promise<Usage> {
      const now = clock();
      const zone = await sqlZone(caller.user.timezone);
      const today = localDate(now, zone);
      const [{ days, totals }, taken] = await Promise.all([
        usageDays(caller, now),
        // The uses the gate counts: in the day of the wallet that pays (see takeGate).
        plans[caller.wallet.plan].gated ? q.featureUsesOf(db, caller.user.id, caller.wallet.id) : [],
      ]);
      const used = new Map(taken.map((t) => [t.capability, t.count]));
      return {
        plan: caller.wallet.plan,
        dailyAllowance: dailyAllowance(caller.wallet.plan, caller.wallet.seats),
        timezone: zone,
        today,
        credits: caller.wallet.credits,
        dailyRenewsAt: caller.wallet.dailyRenewsAt.toISOString(),
        monthlyRenewsAt: caller.wallet.monthlyRenewsAt?.toISOString() ?? null,
        days,
        totals,
        gates: plans[caller.wallet.plan].gated
          ? GATED_CAPABILITIES.map((capability) => {
              const n = Math.min(used.get(capability) ?? 0, FREE_DAILY_USES);
              return { capability, used: n, limit: FREE_DAILY_USES, left: FREE_DAILY_USES - n };
            })
          : [],
      };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
