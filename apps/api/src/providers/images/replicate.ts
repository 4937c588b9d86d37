import { createReplicate } from '@ai-sdk/replicate';
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
import { ImageRefusedError, type ImageAdapter } from './types.js';

const REPLICATE_API = 'https://api.replicate.com/v1';
type Fetch = typeof globalThis.fetch;
type Prediction = { status?: string; error?: unknown; urls?: { get?: string } };

const UNFINISHED = new Set(['starting', 'processing']);

const delay = (ms: number, signal: AbortSignal | null | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/**
 * The provider package asks Replicate to answer when the prediction is done (`Prefer: wait`) and reads `output`
 * from that answer. Replicate answers anyway after its wait (60 s at most) with an unfinished prediction, and a failed
 * one carries its error instead of an output: this fetch follows an unfinished prediction's `urls.get` (on the API's
 * own origin, with the key) until it ends, and turns a failed one into an error (the NSFW filter's: a refusal).
 */
function predictionAware(fetch: Fetch, apiOrigin: string, pollIntervalMs: number, pollTimeoutMs: number): Fetch {
  return async (input, init = {}) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (!response.ok || (init.method ?? 'GET').toUpperCase() !== 'POST' || !url.pathname.endsWith('/predictions'))
      return response;
    let prediction = (await response
      .clone()
      .json()
      .catch(() => null)) as Prediction | null;
    if (
      !prediction ||
      (!UNFINISHED.has(prediction.status ?? '') && prediction.status !== 'failed' && prediction.status !== 'canceled')
    )
      return response;
    const deadline = Date.now() + pollTimeoutMs;
    while (UNFINISHED.has(prediction.status ?? '')) {
      const next = prediction.urls?.get ? new URL(prediction.urls.get) : null;
      if (!next || next.origin !== apiOrigin) throw new Error('Replicate: the prediction cannot be followed');
      if (Date.now() > deadline) throw new Error('Replicate: the prediction did not finish in time');
      await delay(pollIntervalMs, init.signal);
      const polled = await fetch(next, { method: 'GET', headers: init.headers ?? {}, signal: init.signal ?? null });
      if (!polled.ok) return polled; // the provider package reports the error answer
      prediction = (await polled.json()) as Prediction;
    }
    if (prediction.status === 'failed') {
      const error = typeof prediction.error === 'string' ? prediction.error : 'the prediction failed';
      if (/nsfw/i.test(error)) throw new ImageRefusedError('safety', `Replicate: ${error.slice(0, 200)}`);
      throw new Error(`Replicate: ${error.slice(0, 300)}`);
    }
    if (prediction.status === 'canceled') throw new Error('Replicate: the prediction was canceled');
    return new Response(JSON.stringify(prediction), { status: 201, headers: { 'content-type': 'application/json' } });
  };
}

/**
 * Replicate's predictions API through the AI SDK: FLUX.1 [schnell] (generation, up to four images per prediction,
 * the aspect ratio as Replicate's own). Its safety filter leaves flagged images out of the output (counted as
 * missing) and fails the prediction when it flags them all (a refusal).
 */
export function createReplicateImages(settings: AdapterSettings): ImageAdapter {
  const { info, maxRetries } = settings;
  const baseUrl = settings.baseUrl ?? REPLICATE_API;
  const fetch = predictionAware(
    keyGuard(outbound(settings, baseUrl), sameOrigin(baseUrl)),
    new URL(baseUrl).origin,
    settings.pollIntervalMs,
    settings.pollTimeoutMs,
  );
  const model = createReplicate({ apiToken: settings.apiKey, baseURL: baseUrl, fetch }).image(settings.modelName);

  return {
    info,
    async generate({ prompt, aspectRatio, count, abortSignal }) {
      checkRequest(info, aspectRatio, count);
      return makeImages(count, info.maxImages, async (n) => {
        try {
          const result = await generateImage({
            model,
            prompt,
            n,
            maxImagesPerCall: n,
            aspectRatio,
            // PNG rather than the WebP it makes by default, which would be converted here anyway.
            providerOptions: { replicate: { output_format: 'png' } },
            maxRetries,
            abortSignal,
          });
          return await fromFiles(result.images);
        } catch (error) {
          throw failure('Replicate', error, abortSignal);
        }
      });
    },
    edit: async () => cannot(info, 'edit an image'),
    removeBackground: async () => cannot(info, 'remove a background'),
  };
}
