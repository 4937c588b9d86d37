import { createBlackForestLabs } from '@ai-sdk/black-forest-labs';
import type { AspectRatio } from '@parley/contract';
import { generateImage } from 'ai';
import {
  base64,
  cannot,
  checkRequest,
  failure,
  fromFiles,
  keyGuard,
  makeImages,
  outbound,
  type AdapterSettings,
} from './shared.js';
import { ImageRefusedError, type ImageAdapter, type ImageBytes } from './types.js';

const BFL_API = 'https://api.bfl.ai/v1';
type Fetch = typeof globalThis.fetch;

/** FLUX1.1 [pro] takes a width and a height (multiples of 32, 256 to 1440), not an aspect ratio. */
const FLUX_PRO_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1024, height: 1024 },
  '16:9': { width: 1344, height: 768 },
  '9:16': { width: 768, height: 1344 },
  '4:3': { width: 1152, height: 864 },
  '3:4': { width: 864, height: 1152 },
};

/**
 * Where the key may go: the base URL's origin, and the job's polling URL, which Black Forest Labs hands out on a
 * regional host of its own domain (api.bfl.ai → api.us1.bfl.ai/v1/get_result). Results are downloaded from signed
 * delivery URLs, without the key (the provider package would send it there too).
 */
function bflKeyHosts(base: string) {
  const origin = new URL(base);
  const labels = origin.hostname.split('.');
  const parent = labels.length >= 3 && !/^[\d.]+$/.test(origin.hostname) ? labels.slice(1).join('.') : null;
  return (url: URL) =>
    url.origin === origin.origin ||
    (parent !== null &&
      url.protocol === 'https:' &&
      origin.protocol === 'https:' &&
      url.hostname.endsWith(`.${parent}`) &&
      url.pathname.endsWith('/get_result'));
}

/**
 * The provider package polls until "Ready" and does not know the moderation statuses: a moderated job would be
 * polled until the timeout. A poll answering "Request Moderated" (the prompt or input image) or "Content Moderated"
 * (the result) is a refusal.
 */
function moderationAware(fetch: Fetch): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (!response.ok || !url.pathname.endsWith('/get_result')) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { status?: unknown; state?: unknown } | null;
    const status = body?.status ?? body?.state;
    if (status === 'Request Moderated' || status === 'Content Moderated')
      throw new ImageRefusedError('safety', `Black Forest Labs: ${status}`);
    return response;
  };
}

/**
 * Black Forest Labs' FLUX API through the AI SDK: FLUX1.1 [pro] (generation, a reference image as its image prompt)
 * and FLUX.1 Kontext [pro] (generation, a reference image as input, and instruction edits of an input image). One
 * image per job: several are several jobs, submitted together.
 */
export function createBlackForestLabsImages(settings: AdapterSettings): ImageAdapter {
  const { info, maxRetries } = settings;
  const baseUrl = settings.baseUrl ?? BFL_API;
  const fetch = moderationAware(keyGuard(outbound(settings, baseUrl), bflKeyHosts(baseUrl)));
  const model = createBlackForestLabs({
    apiKey: settings.apiKey,
    baseURL: baseUrl,
    fetch,
    pollIntervalMillis: settings.pollIntervalMs,
    pollTimeoutMillis: settings.pollTimeoutMs,
  }).image(settings.modelName);
  const kontext = settings.modelName.startsWith('flux-kontext');

  const run = async (
    prompt: string | { text: string; images: Uint8Array[] },
    options: { aspectRatio?: AspectRatio; bfl: Record<string, string | number | boolean> },
    abortSignal: AbortSignal,
  ) => {
    try {
      const result = await generateImage({
        model,
        prompt,
        ...(options.aspectRatio ? { aspectRatio: options.aspectRatio } : {}),
        providerOptions: { blackForestLabs: options.bfl },
        maxRetries,
        abortSignal,
      });
      return await fromFiles(result.images);
    } catch (error) {
      throw failure('Black Forest Labs', error, abortSignal);
    }
  };

  return {
    info,
    async generate({ prompt, aspectRatio, count, reference, abortSignal }) {
      checkRequest(info, aspectRatio, count);
      const withReference = reference && info.abilities.includes('reference') ? reference : undefined;
      const one = kontext
        ? () =>
            run(
              withReference ? { text: prompt, images: [withReference.bytes] } : prompt,
              { aspectRatio, bfl: {} },
              abortSignal,
            )
        : () =>
            run(
              prompt,
              {
                bfl: {
                  ...FLUX_PRO_SIZES[aspectRatio],
                  ...(withReference ? { imagePrompt: base64(withReference) } : {}),
                },
              },
              abortSignal,
            );
      return makeImages(count, 1, one);
    },
    async edit({ instruction, image, abortSignal }) {
      if (!info.abilities.includes('instruct')) return cannot(info, 'edit an image');
      // PNG: the editor keeps working on this image, and JPEG (the default) would lose a little at every edit.
      const [edited] = await run(
        { text: instruction, images: [image.bytes] },
        { bfl: { outputFormat: 'png' } },
        abortSignal,
      );
      return edited as ImageBytes;
    },
    removeBackground: async () => cannot(info, 'remove a background'),
  };
}
