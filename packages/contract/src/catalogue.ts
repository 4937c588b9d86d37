/** The model catalogue and provider names, without zod: safe to import from any client bundle. */
export const PROVIDERS = ['openai', 'anthropic', 'google', 'deepseek', 'openaiCompatible'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Which credit pays for a request: basicCredit, advanceCredit or extraAdvanceCredit. */
export const TIERS = ['basic', 'advance', 'extraAdvance'] as const;
export type Tier = (typeof TIERS)[number];

/** Context window sizes the product cites (spec §9). */
export const CONTEXT_WINDOWS = [128_000, 200_000, 256_000, 1_000_000, 2_000_000] as const;

export type ModelInfo = {
  id: string;
  label: string;
  provider: Provider;
  /** The provider's own model name; the OpenAI-compatible one comes from the server's or the user's setting. */
  providerModel: string;
  tier: Tier;
  contextWindow: (typeof CONTEXT_WINDOWS)[number];
  capabilities: { vision: boolean; files: boolean; web: boolean };
};

/** The model catalogue, once. Model ids are what settings store (`model`, default GPT_4O_MINI as in spec §3). */
export const MODELS = [
  {
    id: 'GPT_4O_MINI',
    label: 'GPT-4o mini',
    provider: 'openai',
    providerModel: 'gpt-4o-mini',
    tier: 'basic',
    contextWindow: 128_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'GPT_4O',
    label: 'GPT-4o',
    provider: 'openai',
    providerModel: 'gpt-4o',
    tier: 'advance',
    contextWindow: 128_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'GPT_4_1',
    label: 'GPT-4.1',
    provider: 'openai',
    providerModel: 'gpt-4.1',
    tier: 'advance',
    contextWindow: 1_000_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'CLAUDE_3_5_HAIKU',
    label: 'Claude 3.5 Haiku',
    provider: 'anthropic',
    providerModel: 'claude-3-5-haiku-latest',
    tier: 'basic',
    contextWindow: 200_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'CLAUDE_SONNET_4',
    label: 'Claude Sonnet 4',
    provider: 'anthropic',
    providerModel: 'claude-sonnet-4-0',
    tier: 'extraAdvance',
    contextWindow: 200_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'GEMINI_2_0_FLASH',
    label: 'Gemini 2.0 Flash',
    provider: 'google',
    providerModel: 'gemini-2.0-flash',
    tier: 'basic',
    contextWindow: 1_000_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'GEMINI_2_5_PRO',
    label: 'Gemini 2.5 Pro',
    provider: 'google',
    providerModel: 'gemini-2.5-pro',
    tier: 'extraAdvance',
    contextWindow: 2_000_000,
    capabilities: { vision: true, files: true, web: true },
  },
  {
    id: 'DEEPSEEK_CHAT',
    label: 'DeepSeek V3',
    provider: 'deepseek',
    providerModel: 'deepseek-chat',
    tier: 'basic',
    contextWindow: 128_000,
    capabilities: { vision: false, files: true, web: true },
  },
  {
    id: 'DEEPSEEK_REASONER',
    label: 'DeepSeek R1',
    provider: 'deepseek',
    providerModel: 'deepseek-reasoner',
    tier: 'advance',
    contextWindow: 128_000,
    capabilities: { vision: false, files: true, web: true },
  },
  {
    id: 'CUSTOM_OPENAI_COMPATIBLE',
    label: 'Custom (OpenAI-compatible)',
    provider: 'openaiCompatible',
    providerModel: '',
    tier: 'basic',
    contextWindow: 128_000,
    capabilities: { vision: true, files: true, web: true },
  },
] as const satisfies readonly ModelInfo[];

export const MODEL_IDS = MODELS.map((m) => m.id) as unknown as readonly [
  (typeof MODELS)[number]['id'],
  ...(typeof MODELS)[number]['id'][],
];
export type ModelId = (typeof MODELS)[number]['id'];
export const DEFAULT_MODEL: ModelId = 'GPT_4O_MINI';

export function modelInfo(id: ModelId): ModelInfo {
  return MODELS.find((m) => m.id === id)!;
}
