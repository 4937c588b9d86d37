import type { Settings } from './settings.js';

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

/** The §3 settings defaults (checked against settingsSchema in settings.test.ts). */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'light',
  language: 'ENGLISH',
  replyOption: 'AFFIRMATIVE_ACKNOWLEDGMENT',
  tone: 'CASUAL',
  length: 'MEDIUM',
  model: 'GPT_4O_MINI',
  quickAccess: '1',
  summarizeGmail: '1',
  summarizeYoutube: '1',
  summarizeOutlook: '1',
  chatWithImage: '0',
  instantReplyGmail: '1',
  instantReplyOutlook: '1',
  instantReplyLinkedin: '1',
  instantReplyInstagram: '1',
  instantReplyFacebook: '1',
  instantReplyYoutube: '1',
  instantReplyTwitter: '1',
  miniMenu: '1',
  searchWithAI: '1',
  disabledSites: [],
  quickAccessShortcut: 'Ctrl+Shift+K',
};

/** Web app appearance (spec §3 app defaults): stored locally in the browser. */
export const APP_DEFAULTS = {
  language: 'en',
  fontSize: 13,
  themeColor: 'blue-500',
} as const;
export const FONT_SIZES = [11, 12, 13, 14, 15, 16, 18] as const;
