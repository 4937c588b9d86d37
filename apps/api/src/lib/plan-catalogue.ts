import { readFileSync } from 'node:fs';
import {
  BASE_PLAN_IDS,
  DEFAULT_CURRENCY,
  DEFAULT_PLAN_PRICES,
  DEFAULT_STUDENT_DISCOUNT_PERCENT,
  PAID_PLAN_IDS,
  PLANS,
  type Allowance,
  type PaidPlanId,
  type Plan,
  type PlanDuration,
  type PlanId,
} from '@parley/contract';
import { z } from 'zod';

/**
 * Prices and allowances of every plan on this server: the contract's defaults, changed by the JSON file PLANS_FILE
 * names (no code change). With Stripe, what is charged is the Stripe price of each lookup key; these prices are what
 * `npm run admin -- stripe-sync` creates and what is shown when payments are not set up.
 */
export type PlanCatalogue = {
  currency: string;
  studentDiscountPercent: number;
  plans: Record<PlanId, Plan>;
  /** Per period (Team: per seat), smallest currency unit; null: not on sale for that duration. */
  prices: Record<PaidPlanId, Record<PlanDuration, number | null>>;
};

const credits = z.number().int().min(0).max(10_000_000);
const price = z.number().int().min(0).max(100_000_000).nullable();
const fileSchema = z
  .object({
    currency: z
      .string()
      .regex(/^[a-zA-Z]{3}$/)
      .transform((c) => c.toLowerCase())
      .optional(),
    studentDiscountPercent: z.number().int().min(0).max(100).optional(),
    plans: z
      .partialRecord(
        z.enum([...BASE_PLAN_IDS, ...PAID_PLAN_IDS]),
        z
          .object({
            allowance: z
              .object({
                dailyCredit: credits,
                basicCredit: credits,
                advanceCredit: credits,
                extraAdvanceCredit: credits,
              })
              .partial()
              .strict()
              .optional(),
            prices: z.object({ month: price, year: price }).partial().strict().optional(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

export function defaultCatalogue(): PlanCatalogue {
  return {
    currency: DEFAULT_CURRENCY,
    studentDiscountPercent: DEFAULT_STUDENT_DISCOUNT_PERCENT,
    plans: structuredClone(PLANS),
    prices: structuredClone(DEFAULT_PLAN_PRICES),
  };
}

/** The catalogue with a PLANS_FILE's changes; throws a readable message when the file is missing or wrong. */
export function readCatalogue(file: string): PlanCatalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; '));
  }
  const catalogue = defaultCatalogue();
  const changes = parsed.data;
  if (changes.currency) catalogue.currency = changes.currency;
  if (changes.studentDiscountPercent !== undefined) catalogue.studentDiscountPercent = changes.studentDiscountPercent;
  for (const [id, change] of Object.entries(changes.plans ?? {})) {
    const plan = catalogue.plans[id as PlanId];
    if (change?.allowance) plan.allowance = { ...plan.allowance, ...change.allowance } as Allowance;
    if (change?.prices && (PAID_PLAN_IDS as readonly string[]).includes(id)) {
      catalogue.prices[id as PaidPlanId] = { ...catalogue.prices[id as PaidPlanId], ...change.prices };
    }
  }
  return catalogue;
}
