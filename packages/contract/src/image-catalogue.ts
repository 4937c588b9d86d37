import { PROVIDERS, type Tier } from './catalogue.js';

/**
 * Image models (spec §1: FLUX, SD3, DALL-E 3; editing: background removal and change, text removal, re-edit), without
 * zod: safe to import from any client bundle. The server serves a model when its provider has a key (the server's or
 * the person's own); the others show as unavailable.
 */
export const IMAGE_PROVIDERS = ['openai', 'blackForestLabs', 'fal', 'replicate', 'openaiCompatibleImages'] as const;
export type ImageProvider = (typeof IMAGE_PROVIDERS)[number];

/**
 * Providers a person may keep their own key for: the chat ones and the image ones (an OpenAI key serves both chat and
 * OpenAI's image models).
 */
export const KEY_PROVIDERS = [...PROVIDERS, 'blackForestLabs', 'fal', 'replicate', 'openaiCompatibleImages'] as const;
export type KeyProvider = (typeof KEY_PROVIDERS)[number];

/** Shapes a person can ask for; each model lists those it makes (the adapter maps them to the provider's sizes). */
export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/**
 * What a model can do. `generate`: from a prompt (with `reference`: and an image to follow). `instruct`: change an
 * image as a sentence says (background to a scene, text removal, re-edit). `mask`: change only a brushed area.
 * `removeBackground`: cut the subject out onto transparency.
 */
export const IMAGE_ABILITIES = ['generate', 'reference', 'instruct', 'mask', 'removeBackground'] as const;
export type ImageAbility = (typeof IMAGE_ABILITIES)[number];

export type ImageModelInfo = {
  id: string;
  label: string;
  provider: ImageProvider;
  /** The provider's own model name (for the OpenAI-compatible server, its configured model when empty). */
  providerModel: string;
  /** Which credits pay, and how many per image made. */
  tier: Tier;
  creditsPerImage: number;
  abilities: readonly ImageAbility[];
  aspectRatios: readonly AspectRatio[];
  /** Images one request may ask for (the adapter makes several calls when the provider makes fewer at once). */
  maxImages: number;
};

export const IMAGE_MODELS = [
  {
    id: 'FLUX_1_1_PRO',
    label: 'FLUX1.1 [pro]',
    provider: 'blackForestLabs',
    providerModel: 'flux-pro-1.1',
    tier: 'advance',
    creditsPerImage: 2,
    abilities: ['generate', 'reference'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
  {
    id: 'FLUX_KONTEXT_PRO',
    label: 'FLUX.1 Kontext [pro]',
    provider: 'blackForestLabs',
    providerModel: 'flux-kontext-pro',
    tier: 'advance',
    creditsPerImage: 2,
    abilities: ['generate', 'reference', 'instruct'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
  {
    id: 'FAL_FLUX_DEV',
    label: 'FLUX.1 [dev] (fal)',
    provider: 'fal',
    providerModel: 'fal-ai/flux/dev',
    tier: 'basic',
    creditsPerImage: 1,
    abilities: ['generate'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
  {
    id: 'FAL_SD3_MEDIUM',
    label: 'Stable Diffusion 3 Medium (fal)',
    provider: 'fal',
    providerModel: 'fal-ai/stable-diffusion-v3-medium',
    tier: 'basic',
    creditsPerImage: 1,
    abilities: ['generate'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
  {
    id: 'FAL_BACKGROUND_REMOVAL',
    label: 'BiRefNet (fal)',
    provider: 'fal',
    providerModel: 'fal-ai/birefnet',
    tier: 'basic',
    creditsPerImage: 1,
    abilities: ['removeBackground'],
    aspectRatios: [],
    maxImages: 1,
  },
  {
    id: 'REPLICATE_FLUX_SCHNELL',
    label: 'FLUX.1 [schnell] (Replicate)',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-schnell',
    tier: 'basic',
    creditsPerImage: 1,
    abilities: ['generate'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
  {
    id: 'DALL_E_3',
    label: 'DALL·E 3',
    provider: 'openai',
    providerModel: 'dall-e-3',
    tier: 'advance',
    creditsPerImage: 3,
    abilities: ['generate'],
    aspectRatios: ['1:1', '16:9', '9:16'],
    maxImages: 4,
  },
  {
    id: 'GPT_IMAGE_1',
    label: 'GPT Image 1',
    provider: 'openai',
    providerModel: 'gpt-image-1',
    tier: 'extraAdvance',
    creditsPerImage: 2,
    abilities: ['generate', 'reference', 'instruct', 'mask'],
    aspectRatios: ['1:1', '16:9', '9:16'],
    maxImages: 4,
  },
  {
    id: 'LOCAL_STABLE_DIFFUSION',
    label: 'Stable Diffusion (OpenAI-compatible)',
    provider: 'openaiCompatibleImages',
    providerModel: '',
    tier: 'basic',
    creditsPerImage: 1,
    abilities: ['generate', 'instruct', 'mask'],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
    maxImages: 4,
  },
] as const satisfies readonly ImageModelInfo[];

export type ImageModelId = (typeof IMAGE_MODELS)[number]['id'];
export const IMAGE_MODEL_IDS = IMAGE_MODELS.map((m) => m.id) as [ImageModelId, ...ImageModelId[]];
export const imageModelInfo = (id: string): ImageModelInfo | undefined => IMAGE_MODELS.find((m) => m.id === id);

/**
 * The editor's operations (spec §1). `removeBackground`: onto transparency. `changeBackground`: the subject kept, the
 * background a colour, an uploaded image (both composed here after a background removal) or a described scene (an
 * instruction). `removeText`: an instruction. `reEdit`: a free instruction, on a brushed mask where the model can.
 */
export const IMAGE_OPERATIONS = ['removeBackground', 'changeBackground', 'removeText', 'reEdit'] as const;
export type ImageOperation = (typeof IMAGE_OPERATIONS)[number];

/** Which ability each operation needs of the model that does it (a colour or image background: removeBackground). */
export const OPERATION_ABILITY: Record<ImageOperation, ImageAbility> = {
  removeBackground: 'removeBackground',
  changeBackground: 'instruct',
  removeText: 'instruct',
  reEdit: 'instruct',
};

export const IMAGE_PROMPT_MAX = 2_000;
export const IMAGE_COUNT_MAX = 4;
/** Uploads (the editor's image, a reference, a background, a mask): PNG or JPEG only, checked on the bytes. */
export const IMAGE_UPLOAD_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export const IMAGE_UPLOAD_MAX_MB = 20;
/** Decoded size caps: the editor refuses more pixels or a longer side before decoding a pixel. */
export const IMAGE_MAX_MEGAPIXELS = 25;
export const IMAGE_MAX_SIDE = 8_192;
/** The history's page size and the versions one image keeps. */
export const IMAGES_PAGE_SIZE = 24;
export const IMAGE_VERSIONS_MAX = 100;
