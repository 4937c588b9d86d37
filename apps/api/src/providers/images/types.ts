import type { AspectRatio, ImageModelId, ImageModelInfo, ImageProvider } from '@parley/contract';

/**
 * Image bytes as they go to a provider (PNG or JPEG) and come from one (PNG, JPEG or WebP, known by their first bytes
 * only: the images module decodes them, and converts WebP, before anything is kept).
 */
export type ImageBytes = { bytes: Uint8Array; mediaType: string };

/** A provider refused (safety filter, a size or shape it does not make): shown to the person as IMAGE_REFUSED. */
export class ImageRefusedError extends Error {
  constructor(
    readonly reason: 'safety' | 'size' | 'other',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRefusedError';
  }
}

/**
 * One image model on one key, through the AI SDK's image models (`generateImage`) where the SDK has them. Every call
 * takes an abort signal and throws ImageRefusedError for a refusal, anything else for a failure.
 */
export interface ImageAdapter {
  readonly info: ImageModelInfo;
  /**
   * `count` images from a prompt (several calls when the provider makes fewer at once). Resolves with those made;
   * `missing` counts the ones a provider declined while others succeeded. Throws when none was made.
   */
  generate(input: {
    prompt: string;
    aspectRatio: AspectRatio;
    count: number;
    reference?: ImageBytes;
    abortSignal: AbortSignal;
  }): Promise<{ images: ImageBytes[]; missing: number }>;
  /** Changes `image` as `instruction` says (only where `mask` is white, when given and the model can). */
  edit(input: {
    instruction: string;
    image: ImageBytes;
    mask?: ImageBytes;
    abortSignal: AbortSignal;
  }): Promise<ImageBytes>;
  /** The subject on a transparent background (PNG with alpha). */
  removeBackground(input: { image: ImageBytes; abortSignal: AbortSignal }): Promise<ImageBytes>;
}

/**
 * A person's own key for an image provider (from the models module's key store). `baseUrl`: where that key goes
 * instead of the provider's public API (required for openaiCompatibleImages); `modelName`: the model their
 * OpenAI-compatible server runs (the server's configured one when unset).
 */
export type OwnImageKey = {
  provider: ImageProvider;
  apiKey: string;
  baseUrl?: string | undefined;
  modelName?: string | undefined;
};

/** The image models this server can run, on the server's keys or a person's own. */
export interface ImageRegistry {
  /** For each catalogue model: who would pay ('own' wins over 'server'), or null when no key can run it. */
  availability(ownKeys: OwnImageKey[]): Map<ImageModelId, 'server' | 'own' | null>;
  /** The adapter for a model, on the person's key when they have one; throws DomainError MODEL_UNAVAILABLE otherwise. */
  resolve(modelId: ImageModelId, ownKeys: OwnImageKey[]): { adapter: ImageAdapter; keySource: 'server' | 'own' };
}
