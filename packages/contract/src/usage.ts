import { z } from 'zod';
import { CAPABILITY_IDS, PLAN_IDS } from './plans.js';
import { creditsSchema } from './user.js';

const perTier = z.object({ basic: z.number().int(), advance: z.number().int(), extraAdvance: z.number().int() });

/** A person's credits and what they used: the dashboard's numbers and chart. */
export const usageSchema = z.object({
  plan: z.enum(PLAN_IDS),
  /** What the daily credits come back to at midnight (the plan's, times the seats for Team). */
  dailyAllowance: z.number().int(),
  /** The person's time zone, in which days start (UTC when unknown). */
  timezone: z.string(),
  /** Today's date there (YYYY-MM-DD). */
  today: z.string(),
  credits: creditsSchema,
  /** When the daily credits next come back (ISO 8601): the person's next midnight. */
  dailyRenewsAt: z.string(),
  /** When the other credits are next topped up, for plans that renew monthly without payment. */
  monthlyRenewsAt: z.string().nullable(),
  /** Credits used on each of the last 30 days (today last), by the tier of the model that answered. */
  days: z.array(perTier.extend({ date: z.string() })),
  /** The same, summed over the 30 days. */
  totals: perTier,
  /** The free tier's daily uses of each gated capability; empty on plans without the limit. */
  gates: z.array(
    z.object({
      capability: z.enum(CAPABILITY_IDS as [string, ...string[]]),
      used: z.number().int(),
      limit: z.number().int(),
      left: z.number().int(),
    }),
  ),
});
export type Usage = z.infer<typeof usageSchema>;
