import { z } from 'zod';

/** Stable error codes. The API maps each to an HTTP status and a localized message (packages/i18n, namespace `api`). */
export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  MALFORMED_BODY: 400,
  INVALID_TOKEN: 400,
  TOKEN_EXPIRED: 400,
  INVALID_LICENCE_CODE: 400,
  WRONG_PASSWORD: 400,
  SAME_PASSWORD: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  GOOGLE_TOKEN_INVALID: 401,
  EMAIL_NOT_VERIFIED: 403,
  FORBIDDEN: 403,
  GOOGLE_DISABLED: 403,
  ACCOUNT_USES_PASSWORD: 403,
  ACCOUNT_USES_GOOGLE: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 400,
  SESSION_REPLACED: 409,
  ALREADY_UPGRADED: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  OUT_OF_CREDITS: 402,
  URL_NOT_ALLOWED: 400,
  UNSAFE_BASE_URL: 400,
  BASE_URL_NOT_FOUND: 400,
  UNSUPPORTED_FILE: 415,
  INVALID_FILE: 400,
  FILE_TOO_LARGE: 413,
  TOO_MANY_FILES: 400,
  TOO_MANY_PAGES: 413,
  FETCH_TOO_LARGE: 413,
  MODEL_NO_VISION: 400,
  MODEL_NO_FILES: 400,
  FETCH_FAILED: 502,
  PROVIDER_ERROR: 502,
  SUMMARY_FAILED: 502,
  TRANSCRIPT_UNAVAILABLE: 404,
  MODEL_UNAVAILABLE: 503,
  SEARCH_UNAVAILABLE: 503,
  FETCH_TIMEOUT: 504,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorBodySchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Reserved for one meaning: the session ended elsewhere (another login, password change, force logout). Clients drop the token. */
export const FORCED_LOGOUT_STATUS = 409;
