import type { ModelId } from '@parley/contract';
import type { Db } from '../../db/client.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ModelRegistry, ResolvedModel } from '../../providers/ai/registry.js';
import { createKeysService } from './keys.service.js';

/**
 * The model catalogue as one person sees it: which models this server can run for them, on whose key. Their own
 * key wins (and goes only to their own base URL, checked again at use); the server's keys go only to the hosts the
 * server's configuration names.
 */
export function createModelsService({
  db,
  registry,
  box,
  allowPrivateBaseUrls,
}: {
  db: Db;
  registry: ModelRegistry;
  box: SecretBox;
  allowPrivateBaseUrls: boolean;
}) {
  const keys = createKeysService({ db, box, allowPrivateBaseUrls });

  return {
    keys,

    /** A catalogue model for this person, or MODEL_UNAVAILABLE when neither their key nor the server's can run it. */
    async resolve(userId: string, modelId: ModelId): Promise<ResolvedModel> {
      const ownKeys = await keys.ownKeys(userId);
      const resolved = registry.resolve(modelId, ownKeys);
      if (resolved.keySource === 'own')
        await keys.checkBaseUrl(ownKeys.find((k) => k.provider === resolved.info.provider)!);
      return resolved;
    },

    /**
     * `preferred` (a setting: only a preference) when this person can run it, else the first model they can: what
     * answers when no model is asked for by name.
     */
    async served(userId: string, preferred: ModelId): Promise<ModelId> {
      const models = registry.availability(await keys.ownKeys(userId));
      const served = models.find((m) => m.id === preferred && m.available) ?? models.find((m) => m.available);
      return (served?.id as ModelId | undefined) ?? preferred;
    },

    availability: async (userId: string) => registry.availability(await keys.ownKeys(userId)),

    /** Speech to text for this person (their OpenAI-compatible key, or the server's), or null. */
    transcriber: async (userId: string) => registry.transcriber(await keys.ownKeys(userId)),

    label: (modelId: ModelId) => registry.label(modelId),

    /** Holds provider requests made with `signal` until `until` settles (see providers/ai/provider-fetch.ts). */
    holdRequests: registry.holdRequests,
  };
}

export type ModelsService = ReturnType<typeof createModelsService>;
