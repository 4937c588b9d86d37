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

/** The plans a wallet can be on. The plans and payments feature adds the paid ones (Pro, Plus, Team). */
export const PLAN_IDS = ['free', 'earlyBird', 'appDeal'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Plan = {
  /** What the plan's wallet holds: daily credits renew every day at the owner's midnight, the rest as below. */
  allowance: Allowance;
  /** The basic, advance and extra-advance credits are topped up to the allowance every month, without payment. */
  monthlyRenewal: boolean;
  /** The free tier's limit of FREE_DAILY_USES a day applies to the gated capabilities. */
  gated: boolean;
};

/** Every plan, once: the API's wallets and the web app's pages read it from here. */
export const PLANS: Record<PlanId, Plan> = {
  free: { allowance: FREE_ALLOWANCE, monthlyRenewal: false, gated: true },
  earlyBird: { allowance: EARLY_BIRD_ALLOWANCE, monthlyRenewal: false, gated: true },
  appDeal: { allowance: APP_DEAL_ALLOWANCE, monthlyRenewal: true, gated: false },
};

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
  templateAi: { gated: true, live: false },
  imageGeneration: { gated: true, live: false },
  linkedinDraft: { gated: true, live: false },
} as const satisfies Record<string, { gated: boolean; live: boolean }>;
export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_IDS = Object.keys(CAPABILITIES) as Capability[];
/** The gated capabilities this version offers (what the dashboard lists). */
export const GATED_CAPABILITIES = CAPABILITY_IDS.filter((c) => CAPABILITIES[c].gated && CAPABILITIES[c].live);
