import { z } from 'zod';

export { ERROR_CODES, FORCED_LOGOUT_STATUS, type ErrorCode } from './error-codes.js';

export const errorBodySchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** With OUT_OF_CREDITS: the tier of the credits the call needed, how many, and how many the wallet has for it. */
  credits: z.object({ tier: z.string(), needed: z.number().int(), available: z.number().int() }).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
