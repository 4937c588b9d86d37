import { cleanLine } from './clean.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './limits.js';

/**
 * The sign-in and sign-up rules of auth.ts and user.ts without zod, so the login page can check a form without
 * loading a schema library. The zod schemas are built from the same constants, and form-checks.test.ts runs both on
 * the same inputs: a rule cannot change in one place only. The server always validates again with zod.
 *
 * Each check returns the value as the server would read it (trimmed, lower-cased…), or undefined when the server
 * would refuse it.
 */

export const EMAIL_MAX = 254;
/** The address pattern of zod's `z.email()` (its default), given to the schema explicitly. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const NAME_MAX = 80;
export const TIMEZONE_MAX = 64;
/** IANA time zone names: letters, digits and / _ + - only. */
export const TIMEZONE_PATTERN = /^[A-Za-z0-9/_+-]+$/;
export const LICENCE_CODE_MIN = 8;
export const LICENCE_CODE_MAX = 64;
export const LICENCE_CODE_PATTERN = /^[A-Z0-9-]+$/;

/** Length as zod counts it: in characters (code points), so an emoji is one, not two UTF-16 units. */
const length = (value: string) => Array.from(value).length;
const within = (value: string, min: number, max: number) => {
  const n = length(value);
  return n >= min && n <= max;
};

export type FormCheck = (value: string) => string | undefined;

export const formChecks = {
  /** emailSchema */
  email(value: string) {
    const email = value.trim().toLowerCase();
    return within(email, 0, EMAIL_MAX) && EMAIL_PATTERN.test(email) ? email : undefined;
  },
  /** passwordSchema: a new password. */
  password(value: string) {
    return within(value, PASSWORD_MIN, PASSWORD_MAX) ? value : undefined;
  },
  /** The login password: any non-empty password up to the bound (old or short ones get a clear 401). */
  loginPassword(value: string) {
    return within(value, 1, PASSWORD_MAX) ? value : undefined;
  },
  /** nameSchema */
  name(value: string) {
    const name = cleanLine(value).trim();
    return within(name, 1, NAME_MAX) ? name : undefined;
  },
  /** timezoneSchema */
  timezone(value: string) {
    const zone = value.trim();
    return within(zone, 1, TIMEZONE_MAX) && TIMEZONE_PATTERN.test(zone) ? zone : undefined;
  },
  /** licenceCodeSchema */
  licenceCode(value: string) {
    const code = value.trim().toUpperCase();
    return within(code, LICENCE_CODE_MIN, LICENCE_CODE_MAX) && LICENCE_CODE_PATTERN.test(code) ? code : undefined;
  },
} satisfies Record<string, FormCheck>;

export type FormCheckName = keyof typeof formChecks;
