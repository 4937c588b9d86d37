import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ImageModelV3 } from '@ai-sdk/provider';
import type { AspectRatio } from '@parley/contract';
import { generateImage } from 'ai';
import { base64Answers } from './base64-answers.js';
import {
  asImageBytes,
  cannot,
  checkRequest,
  failure,
  keyGuard,
  makeImages,
  outbound,
  sameOrigin,
  transparentWhereWhite,
  type AdapterSettings,
  type Size,
} from './shared.js';
import type { ImageAdapter, ImageBytes } from './types.js';

/** The sizes each model makes (OpenAI's images API takes no aspect ratio, only these sizes). */
const DALL_E_3: Partial<Record<AspectRatio, Size>> = { '1:1': '1024x1024', '16:9': '1792x1024', '9:16': '1024x1792' };
const GPT_IMAGE: Partial<Record<AspectRatio, Size>> = { '1:1': '1024x1024', '16:9': '1536x1024', '9:16': '1024x1536' };
/** A Stable Diffusion server: about a megapixel, sides in multiples of 64. */
const STABLE_DIFFUSION: Record<AspectRatio, Size> = {
  '1:1': '1024x1024',
  '16:9': '1344x768',
  '9:16': '768x1344',
  '4:3': '1024x768',
  '3:4': '768x1024',
};

const OPENAI_API = 'https://api.openai.com/v1';

/**
 * OpenAI's images API through the AI SDK: DALL·E 3 (generation, one image per call) and GPT Image (generation,
 * generation from a reference image, instruction edits and masked edits, all through `/images/edits` when an image is
 * given). The same adapter speaks to an OpenAI-compatible images server (a local Stable Diffusion) with `compatible`.
 */
export function createOpenAIImages(settings: AdapterSettings, { compatible }: { compatible: boolean }): ImageAdapter {
  const { info, maxRetries } = settings;
  const provider = compatible ? 'OpenAI-compatible images server' : 'OpenAI';
  const baseUrl = settings.baseUrl ?? OPENAI_API;
  const fetch = keyGuard(outbound(settings, baseUrl), sameOrigin(baseUrl));
  const modelWith = (fetch: typeof globalThis.fetch): ImageModelV3 =>
    compatible
      ? createOpenAICompatible({
          name: 'openaiCompatibleImages',
          baseURL: baseUrl,
          apiKey: settings.apiKey,
          fetch,
        }).imageModel(settings.modelName)
      : createOpenAI({ apiKey: settings.apiKey, baseURL: baseUrl, fetch }).image(settings.modelName);
  const sizes = compatible ? STABLE_DIFFUSION : settings.modelName === 'dall-e-3' ? DALL_E_3 : GPT_IMAGE;
  // DALL·E 3 makes one image per call; the others take `n`.
  const perCall = settings.modelName === 'dall-e-3' ? 1 : info.maxImages;

  const run = async (
    prompt: string | { text: string; images: Uint8Array[]; mask?: Uint8Array },
    n: number,
    size: Size | undefined,
    abortSignal: AbortSignal,
  ) => {
    // The answer's base64 images are decoded natively, the rest read by the SDK (base64-answers.ts).
    const answers = base64Answers(fetch);
    try {
      const result = await generateImage({
        model: modelWith(answers.fetch),
        prompt,
        n,
        maxImagesPerCall: n,
        ...(size ? { size } : {}),
        maxRetries,
        abortSignal,
      });
      return answers.images(result.images).map(asImageBytes);
    } catch (error) {
      throw failure(provider, error, abortSignal);
    }
  };

  return {
    info,
    async generate({ prompt, aspectRatio, count, reference, abortSignal }) {
      checkRequest(info, aspectRatio, count);
      const size = sizes[aspectRatio];
      if (!size) return cannot(info, `make ${aspectRatio} images`);
      // A reference image goes to the edits endpoint, which GPT Image reads as "make this, like that".
      const asked =
        reference && info.abilities.includes('reference') ? { text: prompt, images: [reference.bytes] } : prompt;
      return makeImages(count, perCall, (n) => run(asked, n, size, abortSignal));
    },
    async edit({ instruction, image, mask, abortSignal }) {
      if (!info.abilities.includes('instruct')) return cannot(info, 'edit an image');
      const withMask = mask && info.abilities.includes('mask');
      const prompt = {
        text: instruction,
        images: [image.bytes],
        ...(withMask ? { mask: (await transparentWhereWhite(mask, image, abortSignal)).bytes } : {}),
      };
      const [edited] = await run(prompt, 1, undefined, abortSignal);
      return edited as ImageBytes;
    },
    removeBackground: async () => cannot(info, 'remove a background'),
  };
}
