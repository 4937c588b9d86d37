import type { TFunction } from 'i18next';
import { IMAGE_MODELS, MODELS } from '@parley/contract/values';

/** The catalogue's own names, by model id (a server may name a model otherwise: its custom model's name). */
const CATALOGUE_LABELS = new Map<string, string>([...MODELS, ...IMAGE_MODELS].map((m) => [m.id, m.label]));

/**
 * A model's name as shown. Most are names (GPT-4o mini, FLUX.1 [dev]) and stay as they are; the few catalogue names
 * that say something in words (a custom OpenAI-compatible server) are translated, under `modelNames.<id>` of the
 * namespace `t` is bound to (chat, images). A name the server gave (the model its custom server runs) is its own.
 */
export const modelName = (t: TFunction, model: { id: string; label: string }): string =>
  model.label === CATALOGUE_LABELS.get(model.id)
    ? t(`modelNames.${model.id}`, { defaultValue: model.label })
    : model.label;
