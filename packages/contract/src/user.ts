import { z } from 'zod';
import { NAME_MAX, TIMEZONE_MAX, TIMEZONE_PATTERN } from './form-checks.js';
import { UI_LANGUAGES } from './languages.js';
import { line } from './text.js';

export const uiLanguageSchema = z.enum(UI_LANGUAGES);

export const ROLES = ['user', 'admin'] as const;

export const creditsSchema = z.object({
  dailyCredit: z.number().int(),
  basicCredit: z.number().int(),
  advanceCredit: z.number().int(),
  extraAdvanceCredit: z.number().int(),
});
export type Credits = z.infer<typeof creditsSchema>;

export const profileSchema = z.object({
  id: z.string(),
  /** Same as id; kept under the name the clients store as `user_details`. */
  profileId: z.string(),
  email: z.string(),
  name: z.string(),
  fullName: z.string(),
  role: z.enum(ROLES),
  timezone: z.string(),
  language: uiLanguageSchema,
  basicUse: z.number().int(),
  advanceUse: z.number().int(),
  extraAdvanceUse: z.number().int(),
  /** basicUse + advanceUse + extraAdvanceUse. */
  monthlyUse: z.number().int(),
  credits: creditsSchema,
  joinDate: z.string(),
  loginCount: z.number().int(),
  lifetimeUser: z.boolean(),
  multipleLogin: z.boolean(),
  verified: z.boolean(),
  earlyBird: z.boolean(),
  appDeal: z.boolean(),
  hasPassword: z.boolean(),
  googleLinked: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

/** IANA time zone names: letters, digits and / _ + - only. */
export const timezoneSchema = z.string().trim().min(1).max(TIMEZONE_MAX).regex(TIMEZONE_PATTERN);

export const nameSchema = line().trim().min(1).max(NAME_MAX);

export const profileUpdateSchema = z
  .object({
    name: nameSchema,
    fullName: line().trim().max(160),
    timezone: timezoneSchema,
    language: uiLanguageSchema,
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
