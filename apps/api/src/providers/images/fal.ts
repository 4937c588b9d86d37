import { createFal } from '@ai-sdk/fal';
import { generateImage } from 'ai';
import {
  cannot,
  checkRequest,
  failure,
  fromFiles,
  keyGuard,
  makeImages,
  outbound,
  sameOrigin,
  type AdapterSettings,
} from './shared.js';
import { ImageRefusedError, type ImageAdapter, type ImageBytes } from './types.js';

const FAL_API = 'https://fal.run';

type FalImageMetadata = { nsfw?: boolean };

/**
 * fal's synchronous API through the AI SDK: FLUX.1 [dev] and Stable Diffusion 3 (generation, up to four images per
 * call, the aspect ratio as fal's named sizes) and BiRefNet (background removal: the image in, the subject on
 * transparency out). fal's safety checker answers a flagged image with a black one and a flag: flagged images are
 * left out, and counted as missing.
 */
export function createFalImages(settings: AdapterSettings): ImageAdapter {
  const { info, maxRetries } = settings;
  const baseUrl = settings.baseUrl ?? FAL_API;
  const fal = createFal({
    apiKey: settings.apiKey,
    baseURL: baseUrl,
    fetch: keyGuard(outbound(settings, baseUrl), sameOrigin(baseUrl)),
  });
  const model = fal.image(settings.modelName);

  return {
    info,
    async generate({ prompt, aspectRatio, count, abortSignal }) {
      checkRequest(info, aspectRatio, count);
      if (!info.abilities.includes('generate')) return cannot(info, 'make images from a prompt');
      return makeImages(count, info.maxImages, async (n) => {
        let files;
        let flags: FalImageMetadata[];
        try {
          const result = await generateImage({
            model,
            prompt,
            n,
            maxImagesPerCall: n,
            aspectRatio,
            providerOptions: { fal: { enableSafetyChecker: true } },
            maxRetries,
            abortSignal,
          });
          files = result.images;
          flags = (result.providerMetadata.fal?.images ?? []) as FalImageMetadata[];
        } catch (error) {
          throw failure('fal', error, abortSignal);
        }
        const kept = files.filter((_, i) => flags[i]?.nsfw !== true);
        if (kept.length === 0)
          throw new ImageRefusedError('safety', 'fal: every image was flagged by the safety checker');
        return fromFiles(kept);
      });
    },
    edit: async () => cannot(info, 'edit an image'),
    async removeBackground({ image, abortSignal }) {
      if (!info.abilities.includes('removeBackground')) return cannot(info, 'remove a background');
      try {
        const result = await generateImage({
          model,
          prompt: { images: [image.bytes] },
          providerOptions: { fal: { outputFormat: 'png' } },
          maxRetries,
          abortSignal,
        });
        const [cut] = await fromFiles(result.images);
        return cut as ImageBytes;
      } catch (error) {
        throw failure('fal', error, abortSignal);
      }
    },
  };
}
