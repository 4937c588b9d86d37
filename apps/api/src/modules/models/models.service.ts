import { DEFAULT_MODEL, servedModel, type ModelId } from '@parley/contract';
import type { Db } from '../../db/client.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ModelRegistry, ResolvedModel } from '../../providers/ai/registry.js';
import type { OwnImageKey } from '../../providers/images/types.js';
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

    /**
     * A catalogue model for this person, or MODEL_UNAVAILABLE when neither their key nor the server's can run it. The
     * catalogue's default is only a default: when it cannot run here, a model this server serves answers in its place
     * (the answer names the model that gave it).
     */
    async resolve(userId: string, modelId: ModelId): Promise<ResolvedModel> {
      const ownKeys = await keys.ownKeys(userId);
      let id = modelId;
      if (modelId === DEFAULT_MODEL) {
        const models = registry.availability(ownKeys);
        const { model, fellBack } = servedModel(models, modelId);
        // Only for a model of the same tier: the turn reserved the default's credit before knowing.
        if (fellBack && model && model.tier === models.find((m) => m.id === modelId)?.tier) id = model.id;
      }
      const resolved = registry.resolve(id, ownKeys);
      if (resolved.keySource === 'own')
        await keys.checkBaseUrl(ownKeys.find((k) => k.provider === resolved.info.provider)!);
      return resolved;
    },

    /**
     * `preferred` (a setting: only a preference) when this person can run it, else one they can (of the same tier
     * first): what answers when no model is asked for by name.
     */
    async served(userId: string, preferred: ModelId): Promise<ModelId> {
      return servedModel(registry.availability(await keys.ownKeys(userId)), preferred).model?.id ?? preferred;
    },

    availability: async (userId: string) => registry.availability(await keys.ownKeys(userId)),

    /** Speech to text for this person (their OpenAI-compatible key, or the server's), or null. */
    transcriber: async (userId: string) => registry.transcriber(await keys.ownKeys(userId)),

    label: (modelId: ModelId) => registry.label(modelId),

    /**
     * This person's own keys for image providers (decrypted for one request; an OpenAI key serves images too), for
     * the image registry's availability and resolve. No DNS lookup here: see checkImageKey.
     */
    imageKeys: (userId: string) => keys.imageKeys(userId),

    /**
     * Before a request on a person's own image key (the registry resolved keySource 'own'): its base URL is checked
     * again, as chat keys are at use (UNSAFE_BASE_URL, BASE_URL_NOT_FOUND); the key's fetch also refuses private
     * addresses at connect time unless the server allows them.
     */
    checkImageKey: (key: OwnImageKey) => keys.checkBaseUrl(key),

    /** Holds provider requests made with `signal` until `until` settles (see providers/ai/provider-fetch.ts). */
    holdRequests: registry.holdRequests,
  };
}

export type ModelsService = ReturnType<typeof createModelsService>;
