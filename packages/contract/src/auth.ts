import { z } from 'zod';
import { PLAN_IDS } from './plans.js';
import { creditsSchema, nameSchema, profileSchema, timezoneSchema, uiLanguageSchema } from './user.js';
import { EMAIL_MAX, EMAIL_PATTERN, LICENCE_CODE_MAX, LICENCE_CODE_MIN, LICENCE_CODE_PATTERN } from './form-checks.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './limits.js';

// The bounds and patterns come from form-checks.ts, which the login page uses instead of these schemas.
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX)
  .pipe(z.email({ pattern: EMAIL_PATTERN }));
export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
/** Login accepts any password up to the bound so old or short passwords still get a clear 401, not a 400. */
const loginPasswordSchema = z.string().min(1).max(PASSWORD_MAX);
const opaqueTokenSchema = z
  .string()
  .trim()
  .min(16)
  .max(256)
  .regex(/^[A-Za-z0-9_-]+$/);

export const registerBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  language: uiLanguageSchema.optional(),
  timezone: timezoneSchema.optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({ email: emailSchema, password: loginPasswordSchema });
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResultSchema = z.object({ token: z.string(), user: profileSchema });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const registerResultSchema = z.object({ email: z.string() });

export const verifyQuerySchema = z.object({ token: opaqueTokenSchema });
export const resendVerificationBodySchema = z.object({ email: emailSchema });
export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export const resetPasswordBodySchema = z.object({ key: opaqueTokenSchema, password: passwordSchema });

export const changePasswordBodySchema = z.object({
  oldPassword: loginPasswordSchema,
  newPassword: passwordSchema,
});
export const DEVICE_TYPES = ['WEB', 'EXTENSION', 'MOBILE'] as const;

/** Google ID tokens are JWTs: three base64url parts. */
export const socialSigninQuerySchema = z.object({
  idToken: z
    .string()
    .trim()
    .min(20)
    .max(8192)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
  forceLogin: z.enum(['true', 'false']).optional(),
});

export const licenceCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .min(LICENCE_CODE_MIN)
  .max(LICENCE_CODE_MAX)
  .regex(LICENCE_CODE_PATTERN);

/** Early-bird channel: signs up a new account or signs in an existing one, marking it early-bird. */
export const earlyBirdBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema.or(loginPasswordSchema),
  name: nameSchema.optional(),
  language: uiLanguageSchema.optional(),
  timezone: timezoneSchema.optional(),
});

/** App-deal channel: a single-use licence code bought elsewhere. */
export const appDealBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  code: licenceCodeSchema,
  language: uiLanguageSchema.optional(),
  timezone: timezoneSchema.optional(),
});
export const upgradeAppDealBodySchema = z.object({ code: licenceCodeSchema });

/** What an upgrade changed on an existing account: its plan and its credits, before and after. */
export const planChangeSchema = z.object({
  planBefore: z.enum(PLAN_IDS),
  planAfter: z.enum(PLAN_IDS),
  creditsBefore: creditsSchema,
  creditsAfter: creditsSchema,
});
export type PlanChange = z.infer<typeof planChangeSchema>;

/** A signed-in account upgraded (a licence code redeemed, early-bird access): the profile now, and what changed. */
export const upgradeResultSchema = z.object({ user: profileSchema, change: planChangeSchema });
export type UpgradeResult = z.infer<typeof upgradeResultSchema>;

/**
 * Either a session (verified account) or a note that a verification mail was sent; `change` when an existing
 * account was upgraded on the way in.
 */
export const channelResultSchema = z.object({
  token: z.string().optional(),
  user: profileSchema.optional(),
  verificationSent: z.boolean(),
  email: z.string(),
  change: planChangeSchema.optional(),
});
export type ChannelResult = z.infer<typeof channelResultSchema>;

export const publicConfigSchema = z.object({
  googleClientId: z.string().nullable(),
  appName: z.string(),
  /** The help pages (FAQ) the settings menu links to, or null when this server names none. */
  helpUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
