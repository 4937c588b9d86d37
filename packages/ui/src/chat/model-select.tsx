import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { servedModel } from '@parley/contract/values';
import type { ModelAvailability, ModelId } from '@parley/contract';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';
import { modelName } from './model-name.js';

/**
 * "GPT-4o mini isn't available on this server; using Llama." when the preferred model (a setting, the default)
 * cannot run here and another one answers in its place; nothing otherwise.
 */
export function ModelFallbackNote({
  models,
  preferred,
  using,
  addKeyLink,
  onAdopt,
  className,
}: {
  models: ModelAvailability[];
  preferred: string | null | undefined;
  /** The model answering instead, when the page picked it; else the one `servedModel` picks. */
  using?: string | null | undefined;
  /** Where a person adds their own API key, given its class and label. */
  addKeyLink?: ((className: string, label: string) => ReactNode) | undefined;
  /** Offers to make the model answering instead the default (which ends the note). */
  onAdopt?: ((model: ModelId) => void) | undefined;
  className?: string;
}) {
  const { t } = useTranslation('chat');
  const wanted = models.find((m) => m.id === preferred);
  const served = servedModel(models, preferred);
  const model = using ? models.find((m) => m.id === using && m.available) : served.model;
  if (!wanted || wanted.available || !model) return null;
  const action = cn('font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400', focusRing);
  const text = t('models.fallback', { preferred: modelName(t, wanted), model: modelName(t, model) });
  // In the chat's header a line of text; in a form a small box with what can be done about it.
  if (!onAdopt && !addKeyLink)
    return (
      <p role="status" className={cn('text-xs text-amber-800 dark:text-amber-300', className)}>
        {text}
      </p>
    );
  return (
    <div
      role="status"
      className={cn(
        'rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200',
        className,
      )}
    >
      <p>{text}</p>
      <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {onAdopt && (
          <button type="button" onClick={() => onAdopt(model.id)} className={action}>
            {t('models.adopt', { model: modelName(t, model) })}
          </button>
        )}
        {addKeyLink?.(action, t('models.addKeyShort'))}
      </p>
    </div>
  );
}

type Props = {
  models: ModelAvailability[];
  /** The stored choice; when this server cannot run it, the model answering instead is shown selected. */
  value: ModelId | null | undefined;
  onChange: (model: ModelId) => void;
  label: string;
  hint?: string;
  name?: string;
  disabled?: boolean;
  addKeyLink?: (className: string, label: string) => ReactNode;
  /** Classes of the select (each app has its own control style). */
  selectClassName?: string;
};

/**
 * The default model as a form field, for settings and onboarding: every catalogue model under the name the chat's
 * picker uses, the ones this server cannot run disabled and marked, and a note when the stored choice is replaced.
 */
export function ModelSelectField({
  models,
  value,
  onChange,
  label,
  hint,
  name = 'model',
  disabled,
  addKeyLink,
  selectClassName,
}: Props) {
  const { t } = useTranslation('chat');
  const id = useId();
  const { model: served } = servedModel(models, value);
  const available = models.filter((m) => m.available);
  const unavailable = models.filter((m) => !m.available);
  const tier = (m: ModelAvailability) => t(`models.tiers.${m.tier}`);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={served?.id ?? ''}
        disabled={disabled || available.length === 0}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value as ModelId)}
        className={cn(
          selectClassName ??
            'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 disabled:bg-zinc-100 disabled:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:disabled:bg-zinc-800',
        )}
      >
        {!served && <option value="">{t('models.noneAvailable')}</option>}
        {available.length > 0 && (
          <optgroup label={t('models.groups.available')}>
            {available.map((m) => (
              <option key={m.id} value={m.id}>
                {`${modelName(t, m)} · ${tier(m)}`}
              </option>
            ))}
          </optgroup>
        )}
        {unavailable.length > 0 && (
          <optgroup label={t('models.groups.needsKey')}>
            {unavailable.map((m) => (
              <option key={m.id} value={m.id} disabled>
                {t('models.needsKeyOption', { model: modelName(t, m) })}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      <ModelFallbackNote
        models={models}
        preferred={value}
        addKeyLink={addKeyLink}
        onAdopt={disabled ? undefined : onChange}
      />
    </div>
  );
}
