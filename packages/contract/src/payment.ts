import { z } from 'zod';
import { emailSchema } from './auth.js';
import { MAX_SEATS, PAID_PLAN_IDS, PLAN_DURATIONS, PLAN_IDS } from './plans.js';
import { creditsSchema } from './user.js';

/** Plans and payments (spec §7 "Payment", §4 subscription actions). Prices are in the currency's smallest unit. */

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The §4 actions (and the customer portal), as offered for a subscription in its present state. */
export const SUBSCRIPTION_ACTIONS = ['upgrade', 'cancel', 'reactivate', 'renew', 'remove', 'portal'] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];

const planSchema = z.enum(PAID_PLAN_IDS);
const durationSchema = z.enum(PLAN_DURATIONS);
/** Query-string booleans. */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const planPriceSchema = z.object({
  /** Per period (Team: per seat). */
  amount: z.number().int(),
  currency: z.string(),
  /** The student price, when student pricing is offered; null otherwise. */
  studentAmount: z.number().int().nullable(),
});

export const planOfferSchema = z.object({
  id: planSchema,
  perSeat: z.boolean(),
  ownKeys: z.boolean(),
  /** The free tier's daily limit on some features applies (false for every paid plan). */
  gated: z.boolean(),
  /** Credits a month (Team: per seat); daily credits every day. */
  allowance: creditsSchema,
  /** null: not on sale for that duration on this server. */
  prices: z.object({ month: planPriceSchema.nullable(), year: planPriceSchema.nullable() }),
  /** What a year saves against twelve months, whole percent. */
  yearlySavingPercent: z.number().int(),
});
export type PlanOffer = z.infer<typeof planOfferSchema>;

export const paymentPlansSchema = z.object({
  /** false when the server has no payment account (STRIPE_SECRET_KEY unset): plans are shown, not sold. */
  paymentsEnabled: z.boolean(),
  /** Days of a free trial, when trials are offered. */
  trialDays: z.number().int().nullable(),
  /** Student prices are offered to people who verify an address on an academic domain. */
  studentPricing: z.boolean(),
  plans: z.array(planOfferSchema),
});
export type PaymentPlans = z.infer<typeof paymentPlansSchema>;

export const subscriptionSchema = z.object({
  plan: planSchema,
  duration: durationSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Seats (Team); 1 otherwise. */
  quantity: z.number().int(),
  /** 'stripe': paid through the payment provider; 'admin': given by a site admin. */
  source: z.enum(['stripe', 'admin']),
  validFrom: z.string(),
  /** End of the period paid for (ISO 8601); null for an admin grant without end. */
  currentPeriodEnd: z.string().nullable(),
  daysRemaining: z.number().int().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  trialEnd: z.string().nullable(),
  promoCode: z.string().nullable(),
  /** A failed payment: the plan stays until then, then the wallet returns to its base plan. */
  graceUntil: z.string().nullable(),
  student: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const currentPlanSchema = z.object({
  /** The plan the wallet is on now. */
  plan: z.enum(PLAN_IDS),
  /** The plan it returns to when a subscription ends (free, early bird, app deal). */
  basePlan: z.enum(PLAN_IDS),
  paymentsEnabled: z.boolean(),
  /** The latest subscription (an ended one too, for "Renew"); null when there has never been one. */
  subscription: subscriptionSchema.nullable(),
  trialAvailable: z.boolean(),
  /** The verified academic address, when there is one. */
  studentEmail: z.string().nullable(),
  actions: z.array(z.enum(SUBSCRIPTION_ACTIONS)),
});
export type CurrentPlan = z.infer<typeof currentPlanSchema>;

/** Promotion codes are Stripe's: letters, digits, - and _. */
export const promoCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const subscribeQuerySchema = z
  .object({
    plan: planSchema,
    planDuration: durationSchema,
    quantity: z.coerce.number().int().min(1).max(MAX_SEATS).default(1),
    promoCode: promoCodeSchema.optional(),
    student: flag,
  })
  // Anything else a client sends (a price, an amount, credits) is dropped: the server prices the plan.
  .strip();
export type SubscribeQuery = z.input<typeof subscribeQuerySchema>;

export const freeTrialQuerySchema = z.object({ plan: planSchema, planDuration: durationSchema }).strip();

export const updateSubscriptionQuerySchema = z
  .object({
    plan: planSchema,
    planDuration: durationSchema,
    quantity: z.coerce.number().int().min(1).max(MAX_SEATS).default(1),
  })
  .strip();

/** Where to send the browser next (a hosted checkout or the customer portal). */
export const redirectUrlSchema = z.object({ url: z.string() });

export const promoQuerySchema = z
  .object({ code: promoCodeSchema, plan: planSchema.optional(), planDuration: durationSchema.optional() })
  .strict();
export const promoSchema = z.object({
  code: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** 'once', 'forever' or 'repeating' (for durationInMonths). */
  duration: z.string(),
  durationInMonths: z.number().int().nullable(),
});
export type Promo = z.infer<typeof promoSchema>;

export const studentBodySchema = z.object({ email: emailSchema }).strict();
export const studentConfirmBodySchema = z.object({ token: z.string().trim().min(16).max(200) }).strict();

/** A Checkout Session id (`cs_…`), handed back on the success URL. */
export const confirmCheckoutBodySchema = z
  .object({
    sessionId: z
      .string()
      .max(255)
      .regex(/^cs_[A-Za-z0-9_]+$/),
  })
  .strict();
