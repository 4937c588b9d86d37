import { z } from 'zod';
import { nameSchema, profileSchema, timezoneSchema, uiLanguageSchema } from './user.js';

import { PASSWORD_MAX, PASSWORD_MIN } from './limits.js';

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
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
  .min(8)
  .max(64)
  .regex(/^[A-Z0-9-]+$/);

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

/** Either a session (verified account) or a note that a verification mail was sent. */
export const channelResultSchema = z.object({
  token: z.string().optional(),
  user: profileSchema.optional(),
  verificationSent: z.boolean(),
  email: z.string(),
});
export type ChannelResult = z.infer<typeof channelResultSchema>;

export const publicConfigSchema = z.object({
  googleClientId: z.string().nullable(),
  appName: z.string(),
  /** The help pages (FAQ) the settings menu links to, or null when this server names none. */
  helpUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
