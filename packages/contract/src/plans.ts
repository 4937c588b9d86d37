import type { Tier } from './catalogue.js';

/** Credit allowances and plans. Numbers are product decisions recorded in docs/decisions (005, 018). */
export type Allowance = {
  dailyCredit: number;
  basicCredit: number;
  advanceCredit: number;
  extraAdvanceCredit: number;
};

export const FREE_ALLOWANCE: Allowance = { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 };
export const EARLY_BIRD_ALLOWANCE: Allowance = {
  dailyCredit: 10,
  basicCredit: 300,
  advanceCredit: 50,
  extraAdvanceCredit: 10,
};
export const APP_DEAL_ALLOWANCE: Allowance = {
  dailyCredit: 20,
  basicCredit: 1000,
  advanceCredit: 200,
  extraAdvanceCredit: 50,
};

/** Paid plans' allowances (a month's worth; Team's per seat). Defaults: the server's PLANS_FILE can change them. */
export const PRO_ALLOWANCE: Allowance = {
  dailyCredit: 50,
  basicCredit: 2000,
  advanceCredit: 300,
  extraAdvanceCredit: 50,
};
export const PLUS_ALLOWANCE: Allowance = {
  dailyCredit: 100,
  basicCredit: 5000,
  advanceCredit: 1000,
  extraAdvanceCredit: 200,
};
export const TEAM_SEAT_ALLOWANCE: Allowance = {
  dailyCredit: 50,
  basicCredit: 2500,
  advanceCredit: 500,
  extraAdvanceCredit: 100,
};
/** Bring your own keys: calls on the person's keys are unmetered; a little for the server's keys. */
export const BYOK_ALLOWANCE: Allowance = { dailyCredit: 10, basicCredit: 100, advanceCredit: 0, extraAdvanceCredit: 0 };

/** The plans a wallet can be on: the ones given at sign-up, then the paid ones (Pro, Plus, Team, own keys). */
export const PLAN_IDS = ['free', 'earlyBird', 'appDeal', 'pro', 'plus', 'team', 'byok'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
/** The plans sold by subscription. */
export const PAID_PLAN_IDS = ['pro', 'plus', 'team', 'byok'] as const satisfies readonly PlanId[];
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];
/** The plans a person gets without paying (what a wallet returns to when a subscription ends). */
export const BASE_PLAN_IDS = ['free', 'earlyBird', 'appDeal'] as const satisfies readonly PlanId[];
export type BasePlanId = (typeof BASE_PLAN_IDS)[number];
export const isPaidPlan = (plan: PlanId): plan is PaidPlanId => (PAID_PLAN_IDS as readonly PlanId[]).includes(plan);

export type Plan = {
  /** What the plan's wallet holds: daily credits renew every day at the owner's midnight, the rest as below. */
  allowance: Allowance;
  /** The basic, advance and extra-advance credits are topped up to the allowance every month, without payment. */
  monthlyRenewal: boolean;
  /** The free tier's limit of FREE_DAILY_USES a day applies to the gated capabilities. */
  gated: boolean;
  /** Priced per member (Team): the allowance is per seat, multiplied by the subscription's quantity. */
  perSeat?: boolean;
  /** Meant for people's own provider keys (whose calls are never metered). */
  ownKeys?: boolean;
};

/** Every plan, once: the API's wallets and the web app's pages read it from here. */
export const PLANS: Record<PlanId, Plan> = {
  free: { allowance: FREE_ALLOWANCE, monthlyRenewal: false, gated: true },
  earlyBird: { allowance: EARLY_BIRD_ALLOWANCE, monthlyRenewal: false, gated: true },
  appDeal: { allowance: APP_DEAL_ALLOWANCE, monthlyRenewal: true, gated: false },
  pro: { allowance: PRO_ALLOWANCE, monthlyRenewal: true, gated: false },
  plus: { allowance: PLUS_ALLOWANCE, monthlyRenewal: true, gated: false },
  team: { allowance: TEAM_SEAT_ALLOWANCE, monthlyRenewal: true, gated: false, perSeat: true },
  byok: { allowance: BYOK_ALLOWANCE, monthlyRenewal: true, gated: false, ownKeys: true },
};

/** How often a subscription is paid. */
export const PLAN_DURATIONS = ['month', 'year'] as const;
export type PlanDuration = (typeof PLAN_DURATIONS)[number];

/** Prices in the currency's smallest unit (cents), per period (Team: per seat). Sample prices of spec §9. */
export type PlanPrices = Record<PlanDuration, number>;
export const DEFAULT_CURRENCY = 'usd';
export const DEFAULT_PLAN_PRICES: Record<PaidPlanId, PlanPrices> = {
  pro: { month: 1500, year: 9900 },
  plus: { month: 2500, year: 17900 },
  team: { month: 2000, year: 14900 },
  byok: { month: 500, year: 3000 },
};
/** Student prices: this share of the price, for people who verified an academic address. */
export const DEFAULT_STUDENT_DISCOUNT_PERCENT = 50;
/** Seats a Team subscription can have. */
export const MAX_SEATS = 500;

/** The Stripe price lookup key of a plan and duration (`parley_pro_month`, `parley_team_year_student`). */
export const priceLookupKey = (plan: PaidPlanId, duration: PlanDuration, student = false) =>
  `parley_${plan}_${duration}${student ? '_student' : ''}`;

/** What a year saves against twelve months, in whole percent (0 when it saves nothing). */
export const yearlySavingPercent = (prices: PlanPrices) =>
  prices.month > 0 ? Math.max(0, Math.round((1 - prices.year / (prices.month * 12)) * 100)) : 0;

/** Model tiers that daily credits pay for, before the tier's own credits. Extra-advance models never use them. */
export const DAILY_CREDIT_TIERS: readonly Tier[] = ['basic', 'advance'];

/** Free tier: 3 a day for the gated capabilities (spec §6, §9). */
export const FREE_DAILY_USES = 3;

/**
 * What Parley meters, each AI call being one use of one capability. `gated`: on a free-tier plan, at most
 * FREE_DAILY_USES a day (renewed at the person's midnight), when the server's keys pay. `live`: offered by this
 * version (the others are metered the day their feature arrives).
 */
export const CAPABILITIES = {
  chat: { gated: false, live: true },
  rewrite: { gated: false, live: true },
  reply: { gated: true, live: true },
  comment: { gated: true, live: true },
  suggestion: { gated: false, live: true },
  translate: { gated: false, live: true },
  summary: { gated: true, live: true },
  transcribe: { gated: false, live: true },
  templateAi: { gated: true, live: true },
  imageGeneration: { gated: true, live: true },
  imageEdit: { gated: false, live: true },
  linkedinDraft: { gated: true, live: true },
} as const satisfies Record<string, { gated: boolean; live: boolean }>;
export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_IDS = Object.keys(CAPABILITIES) as Capability[];
/** The gated capabilities this version offers (what the dashboard lists). */
export const GATED_CAPABILITIES = CAPABILITY_IDS.filter((c) => CAPABILITIES[c].gated && CAPABILITIES[c].live);
