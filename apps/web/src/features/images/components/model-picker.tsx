import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageAbility, ImageModel } from '@parley/contract';
import { cn } from '@parley/ui';
import { TierBadge, UnavailableHint, usePrice } from './parts';
import { modelName } from '@parley/ui/chat';

/** Models that can do `ability`, the usable ones first (the catalogue's order kept within each group). */
export function ableModels(models: readonly ImageModel[], ability: ImageAbility): ImageModel[] {
  const able = models.filter((m) => m.abilities.includes(ability));
  return [...able.filter((m) => m.available), ...able.filter((m) => !m.available)];
}

/** The chosen model if it is still usable, else the first usable one. */
export function pickModel(models: readonly ImageModel[], chosen: string | null | undefined): ImageModel | undefined {
  return models.find((m) => m.id === chosen && m.available) ?? models.find((m) => m.available);
}

const selectClasses =
  'block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 disabled:bg-zinc-100 disabled:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:disabled:bg-zinc-800';

/**
 * The generation page's model choice: one radio per model with its tier and its price per image; a model this server
 * has no key for is shown disabled, with why and where to add a key.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  apiKeysPath,
}: {
  models: readonly ImageModel[];
  value: string | undefined;
  onChange: (id: string) => void;
  apiKeysPath: string;
}) {
  const { t } = useTranslation('images');
  const id = useId();
  const price = usePrice();
  const anyUnavailable = models.some((m) => !m.available);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('generate.model')}</legend>
      <ul className="grid gap-2 sm:grid-cols-2">
        {models.map((model) => {
          const inputId = `${id}-${model.id}`;
          const checked = model.id === value;
          return (
            <li key={model.id}>
              <label
                htmlFor={inputId}
                className={cn(
                  'flex h-full items-start gap-3 rounded-lg border px-3 py-2 text-sm',
                  model.available ? 'cursor-pointer' : 'cursor-not-allowed opacity-60',
                  checked
                    ? 'border-blue-500 bg-blue-50/60 ring-1 ring-blue-500 dark:bg-blue-500/10'
                    : 'border-zinc-200 hover:border-zinc-300 dark:border-zinc-800 dark:hover:border-zinc-700',
                  'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
                )}
              >
                <input
                  id={inputId}
                  type="radio"
                  name={`${id}-model`}
                  value={model.id}
                  checked={checked}
                  disabled={!model.available}
                  onChange={() => onChange(model.id)}
                  aria-describedby={`${inputId}-details`}
                  className="mt-1 h-4 w-4 shrink-0 accent-blue-600"
                />
                <span className="min-w-0 flex-1 space-y-0.5">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="font-medium text-zinc-900 dark:text-zinc-100">{modelName(t, model)}</span>
                    <TierBadge tier={model.tier} />
                  </span>
                  <span id={`${inputId}-details`} className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {model.available ? price.perImage(model) : t('models.unavailable')}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {anyUnavailable && <UnavailableHint apiKeysPath={apiKeysPath} />}
    </fieldset>
  );
}

/**
 * The editor's model choice for one operation: the able models (those this server has no key for listed disabled, with
 * why below), and the chosen one's tier and price.
 */
export function ModelSelect({
  models,
  value,
  onChange,
  apiKeysPath,
}: {
  models: readonly ImageModel[];
  value: string | undefined;
  onChange: (id: string) => void;
  apiKeysPath: string;
}) {
  const { t } = useTranslation('images');
  const id = useId();
  const price = usePrice();
  const usable = models.filter((m) => m.available);
  const chosen = usable.find((m) => m.id === value);
  if (models.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('models.noneAble')}</p>;
  if (usable.length === 0) {
    return (
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('edit.model')}</p>
        <UnavailableHint apiKeysPath={apiKeysPath}>{t('models.noneAvailable')}</UnavailableHint>
      </div>
    );
  }
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {t('edit.model')}
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={chosen ? `${id}-details` : undefined}
        className={selectClasses}
      >
        {models.map((m) => (
          // Unavailable models stay in the list (the person sees what a key would add) but cannot be chosen.
          <option key={m.id} value={m.id} disabled={!m.available}>
            {m.available ? modelName(t, m) : t('models.optionUnavailable', { model: modelName(t, m) })}
          </option>
        ))}
      </select>
      {chosen && (
        <p id={`${id}-details`} className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          <TierBadge tier={chosen.tier} />
          {price.perImage(chosen)}
        </p>
      )}
      {usable.length < models.length && <UnavailableHint apiKeysPath={apiKeysPath} />}
    </div>
  );
}
