import { z } from 'zod';
import { MODEL_IDS } from './catalogue.js';
import { line } from './text.js';
import { LENGTHS, REPLY_OPTIONS, THEMES, TONES, WRITING_LANGUAGES } from './settings-values.js';

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
  quickAccessShortcut: line().trim().min(1).max(40).default('Ctrl+Shift+K'),
});
export type Settings = z.infer<typeof settingsSchema>;

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
