import { z } from 'zod';

export { ERROR_CODES, FORCED_LOGOUT_STATUS, type ErrorCode } from './error-codes.js';

export const errorBodySchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
