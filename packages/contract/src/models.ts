import { z } from 'zod';
import { MODEL_IDS, PROVIDERS, TIERS } from './catalogue.js';
import { KEY_PROVIDERS } from './image-catalogue.js';

export const providerSchema = z.enum(PROVIDERS);
/** Whose key a person may keep: chat and image providers. */
export const keyProviderSchema = z.enum(KEY_PROVIDERS);
export const modelIdSchema = z.enum(MODEL_IDS);
/** What the picker shows: the catalogue plus whether this user can use each model now, and with whose key. */
export const modelAvailabilitySchema = z.object({
  id: modelIdSchema,
  label: z.string(),
  provider: providerSchema,
  tier: z.enum(TIERS),
  contextWindow: z.number().int(),
  capabilities: z.object({ vision: z.boolean(), files: z.boolean(), web: z.boolean() }),
  available: z.boolean(),
  /** 'own': the user's key (not metered); 'server': the server's key (metered); null: unavailable. */
  keySource: z.enum(['own', 'server']).nullable(),
});
export type ModelAvailability = z.infer<typeof modelAvailabilitySchema>;
