import { MODELS, type Tier } from './catalogue.js';

type Choice = { id: string; available: boolean; tier?: Tier };

/**
 * The model that answers for a preferred one (a setting, the catalogue's default): the preferred model when this
 * server can run it for this person, else the first one it can run of the same tier (so it costs the same credit),
 * else the first one it can run at all. `fellBack` says the preferred model was replaced, which the person is told.
 */
export function servedModel<M extends Choice>(
  models: readonly M[],
  preferred: string | null | undefined,
): { model: M | null; fellBack: boolean } {
  const wanted = preferred ? models.find((m) => m.id === preferred) : undefined;
  if (wanted?.available) return { model: wanted, fellBack: false };
  const tier = wanted?.tier ?? MODELS.find((m) => m.id === preferred)?.tier;
  const model =
    (tier ? models.find((m) => m.available && m.tier === tier) : undefined) ?? models.find((m) => m.available) ?? null;
  return { model, fellBack: Boolean(preferred && model) };
}
