import { z } from 'zod';

/**
 * Model identifiers as stored in settings (`model`, default GPT_4O_MINI as in spec §3).
 * The full catalogue (labels, providers, tiers, context windows, capabilities) grows with the chat feature.
 */
export const MODEL_IDS = [
  'GPT_4O_MINI',
  'GPT_4O',
  'GPT_4_1',
  'CLAUDE_3_5_HAIKU',
  'CLAUDE_SONNET_4',
  'GEMINI_2_0_FLASH',
  'GEMINI_2_5_PRO',
  'DEEPSEEK_CHAT',
  'DEEPSEEK_REASONER',
  'CUSTOM_OPENAI_COMPATIBLE',
] as const;
export const modelIdSchema = z.enum(MODEL_IDS);
export type ModelId = z.infer<typeof modelIdSchema>;
export const DEFAULT_MODEL: ModelId = 'GPT_4O_MINI';
