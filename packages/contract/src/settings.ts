import { z } from 'zod';
import { MODEL_IDS } from './models.js';

/** Output languages for writing (rewrite, replies, translation target default). */
export const WRITING_LANGUAGES = [
  'ENGLISH',
  'SPANISH',
  'FRENCH',
  'GERMAN',
  'ITALIAN',
  'PORTUGUESE',
  'DUTCH',
  'POLISH',
  'RUSSIAN',
  'UKRAINIAN',
  'TURKISH',
  'ARABIC',
  'HEBREW',
  'HINDI',
  'BENGALI',
  'URDU',
  'CHINESE_SIMPLIFIED',
  'CHINESE_TRADITIONAL',
  'JAPANESE',
  'KOREAN',
  'VIETNAMESE',
  'THAI',
  'INDONESIAN',
  'MALAY',
  'FILIPINO',
  'SWEDISH',
  'NORWEGIAN',
  'DANISH',
  'FINNISH',
  'GREEK',
  'CZECH',
  'ROMANIAN',
  'HUNGARIAN',
  'PERSIAN',
] as const;
export const TONES = [
  'CASUAL',
  'FORMAL',
  'PROFESSIONAL',
  'FRIENDLY',
  'CONFIDENT',
  'EMPATHETIC',
  'ENTHUSIASTIC',
  'DIRECT',
  'HUMOROUS',
] as const;
export const LENGTHS = ['SHORT', 'MEDIUM', 'LONG'] as const;
export const REPLY_OPTIONS = [
  'AFFIRMATIVE_ACKNOWLEDGMENT',
  'NEGATIVE_RESPONSE',
  'REQUEST_MORE_INFORMATION',
  'EXPRESS_GRATITUDE',
  'SCHEDULE_MEETING',
  'FOLLOW_UP',
  'CUSTOM',
] as const;
export const THEMES = ['light', 'dark'] as const;

const flag = z.enum(['1', '0']);

/** Extension/app settings of spec §3, each with exactly its default. */
export const settingsSchema = z.object({
  theme: z.enum(THEMES).default('light'),
  language: z.enum(WRITING_LANGUAGES).default('ENGLISH'),
  replyOption: z.enum(REPLY_OPTIONS).default('AFFIRMATIVE_ACKNOWLEDGMENT'),
  tone: z.enum(TONES).default('CASUAL'),
  length: z.enum(LENGTHS).default('MEDIUM'),
  model: z.enum(MODEL_IDS).default('GPT_4O_MINI'),
  quickAccess: flag.default('1'),
  summarizeGmail: flag.default('1'),
  summarizeYoutube: flag.default('1'),
  summarizeOutlook: flag.default('1'),
  chatWithImage: flag.default('0'),
  instantReplyGmail: flag.default('1'),
  instantReplyOutlook: flag.default('1'),
  instantReplyLinkedin: flag.default('1'),
  instantReplyInstagram: flag.default('1'),
  instantReplyFacebook: flag.default('1'),
  instantReplyYoutube: flag.default('1'),
  instantReplyTwitter: flag.default('1'),
  miniMenu: flag.default('1'),
  searchWithAI: flag.default('1'),
  /** Hosts on which the extension injects nothing at all. */
  disabledSites: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .min(1)
        .max(253)
        .regex(/^[a-z0-9.-]+$/),
    )
    .max(200)
    .default([]),
  quickAccessShortcut: z.string().trim().min(1).max(40).default('Ctrl+Shift+K'),
});
export type Settings = z.infer<typeof settingsSchema>;
export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

type Shape = typeof settingsSchema.shape;
type WithoutDefaults = { [K in keyof Shape]: ReturnType<Shape[K]['removeDefault']> };

/**
 * Partial update: unknown keys are rejected, values validated, omitted keys keep their stored value.
 * Defaults are removed first: zod fills defaults even for keys left out of a partial object.
 */
export const settingsUpdateSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingsSchema.shape).map(([key, schema]) => [key, schema.removeDefault()]),
    ) as WithoutDefaults,
  )
  .partial()
  .strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** Web app appearance (spec §3 app defaults): stored locally in the browser. */
export const APP_DEFAULTS = {
  language: 'en',
  fontSize: 13,
  themeColor: 'blue-500',
} as const;
export const FONT_SIZES = [11, 12, 13, 14, 15, 16, 18] as const;
