import { IMAGE_MODELS, type ImageModelId, type ImageModelInfo, type ImageProvider } from '@parley/contract';
import type { Config } from '../../config.js';
import { DomainError } from '../../lib/errors.js';
import { createProviderFetch, type ProviderFetchOptions } from '../ai/provider-fetch.js';
import { createBlackForestLabsImages } from './black-forest-labs.js';
import { createFalImages } from './fal.js';
import { createOpenAIImages } from './openai.js';
import { createReplicateImages } from './replicate.js';
import type { AdapterSettings } from './shared.js';
import type { ImageAdapter, ImageRegistry, OwnImageKey } from './types.js';

export type ImageRegistryOptions = {
  /** How often Black Forest Labs' and Replicate's jobs are polled; 500 ms by default. */
  pollIntervalMs?: number;
  /**
   * Retries of a call that failed on the way (connection, 5xx, 429); none by default: an image call is long and may
   * be billed, so a failure is refunded and the person decides whether to try again.
   */
  maxRetries?: number;
  /** For tests: replaces DNS resolution of every request the adapters make (see createProviderFetch). */
  lookup?: ProviderFetchOptions['lookup'];
};

/**
 * The largest answer read from an image provider, in bytes: JSON (OpenAI's b64_json, four images of a few megabytes
 * each, grown a third by base64; predictions) or a result's file (a provider's largest images are a few megapixels,
 * well under this even as PNG). Past it the call fails as any provider failure does: without it, a provider (or
 * anyone's own key pointing at a server they control) could have a request read hundreds of megabytes into memory.
 */
export const MAX_PROVIDER_RESPONSE_BYTES = 50 * 1024 * 1024;

type Endpoint = { apiKey: string | undefined; baseUrl?: string | undefined; modelName?: string | undefined };
type Fetch = typeof globalThis.fetch;

function build(info: ImageModelInfo, endpoint: Endpoint, fetch: Fetch, common: Common): ImageAdapter {
  const settings: AdapterSettings = {
    info,
    apiKey: endpoint.apiKey,
    baseUrl: endpoint.baseUrl,
    modelName: info.providerModel || endpoint.modelName || common.defaultCompatibleModel,
    fetch,
    resultFetch: common.resultFetch,
    pollIntervalMs: common.pollIntervalMs,
    pollTimeoutMs: common.timeoutMs,
    maxRetries: common.maxRetries,
  };
  switch (info.provider) {
    case 'openai':
      return createOpenAIImages(settings, { compatible: false });
    case 'openaiCompatibleImages':
      return createOpenAIImages(settings, { compatible: true });
    case 'blackForestLabs':
      return createBlackForestLabsImages(settings);
    case 'fal':
      return createFalImages(settings);
    case 'replicate':
      return createReplicateImages(settings);
  }
}

type Common = {
  pollIntervalMs: number;
  timeoutMs: number;
  maxRetries: number;
  defaultCompatibleModel: string;
  resultFetch: Fetch;
};

/**
 * The image models of the catalogue this server can run, through the AI SDK's image models. A person's own key wins
 * and goes only to their base URL (or the provider's public API), over a fetch that refuses private addresses unless
 * the configuration allows them; the server's keys go only to the base URLs its configuration names. Anything else an
 * answer points to (results on a CDN) is fetched with private addresses refused, whoever's key it is (see `outbound`).
 * No answer is read past MAX_PROVIDER_RESPONSE_BYTES.
 */
export function createImageRegistry(images: Config['images'], options: ImageRegistryOptions = {}): ImageRegistry {
  const shared: ProviderFetchOptions = {
    maxResponseBytes: MAX_PROVIDER_RESPONSE_BYTES,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  };
  const serverFetch = createProviderFetch(shared);
  const ownFetch = createProviderFetch({ ...shared, blockPrivate: !images.allowPrivateBaseUrls });
  const common: Common = {
    pollIntervalMs: options.pollIntervalMs ?? 500,
    timeoutMs: images.timeoutMs,
    maxRetries: options.maxRetries ?? 0,
    defaultCompatibleModel: images.openaiCompatible.model,
    resultFetch: createProviderFetch({ ...shared, blockPrivate: true }),
  };
  const server: Record<ImageProvider, Endpoint | null> = {
    openai: images.openai.apiKey ? images.openai : null,
    blackForestLabs: images.blackForestLabs.apiKey ? images.blackForestLabs : null,
    fal: images.fal.apiKey ? images.fal : null,
    replicate: images.replicate.apiKey ? images.replicate : null,
    openaiCompatibleImages: images.openaiCompatible.baseUrl
      ? {
          apiKey: images.openaiCompatible.apiKey,
          baseUrl: images.openaiCompatible.baseUrl,
          modelName: images.openaiCompatible.model,
        }
      : null,
  };
  // An OpenAI-compatible server is reached only at an address its owner gave.
  const usable = (key: OwnImageKey) => key.provider !== 'openaiCompatibleImages' || Boolean(key.baseUrl);
  const ownKey = (info: ImageModelInfo, ownKeys: OwnImageKey[]) =>
    ownKeys.find((k) => k.provider === info.provider && usable(k));

  // Adapters on the server's keys are built once; those on a person's key, per request.
  const serverAdapters = new Map<ImageModelId, ImageAdapter>();

  return {
    availability(ownKeys) {
      const map = new Map<ImageModelId, 'server' | 'own' | null>();
      for (const info of IMAGE_MODELS)
        map.set(info.id, ownKey(info, ownKeys) ? 'own' : server[info.provider] ? 'server' : null);
      return map;
    },

    resolve(modelId, ownKeys) {
      const info = IMAGE_MODELS.find((m) => m.id === modelId) as ImageModelInfo | undefined;
      if (!info) throw new DomainError('MODEL_UNAVAILABLE', { model: String(modelId) });
      const own = ownKey(info, ownKeys);
      if (own) return { keySource: 'own', adapter: build(info, own, ownFetch, common) };
      const endpoint = server[info.provider];
      if (!endpoint) throw new DomainError('MODEL_UNAVAILABLE', { model: info.label });
      let adapter = serverAdapters.get(modelId);
      if (!adapter) {
        adapter = build(info, endpoint, serverFetch, common);
        serverAdapters.set(modelId, adapter);
      }
      return { keySource: 'server', adapter };
    },
  };
}
