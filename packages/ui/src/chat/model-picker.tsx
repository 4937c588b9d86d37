import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelAvailability, ModelId, Tier } from '@parley/contract';
import { ChevronDownIcon } from '../action-icons.js';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';
import { ModelFallbackNote } from './model-select.js';
import { modelName } from './model-name.js';

const tierClass: Record<Tier, string> = {
  basic: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300',
  advance: 'bg-blue-50 text-blue-700 ring-blue-600/20 dark:bg-blue-500/10 dark:text-blue-300',
  extraAdvance: 'bg-violet-50 text-violet-700 ring-violet-600/20 dark:bg-violet-500/10 dark:text-violet-300',
};

/** 128000 → '128K', 2000000 → '2M'. */
export function contextLabel(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`;
  return `${Math.round(tokens / 1000)}K`;
}

export function TierBadge({ tier }: { tier: Tier }) {
  const { t } = useTranslation('chat');
  return (
    <span className={cn('rounded-full px-1.5 py-0.5 text-[0.6875rem] font-medium ring-1 ring-inset', tierClass[tier])}>
      {t(`models.tiers.${tier}`)}
    </span>
  );
}

type Props = {
  models: ModelAvailability[];
  value: ModelId | null;
  onChange: (model: ModelId) => void;
  /**
   * The link to where a person adds their own API key (a router link in the web app, a new tab in the extension),
   * given its class and label.
   */
  addKeyLink: (className: string, label: string) => ReactNode;
  /**
   * The person's default model (their setting). When this server cannot run it and `value` is the model answering
   * in its place, a note under the button says so.
   */
  preferred?: string | null | undefined;
};

/**
 * The model menu: every model with its tier and context size; unavailable ones are shown disabled with the reason
 * and a link to add a key. Radio buttons inside, so arrow keys move between models.
 */
export function ModelPicker({ models, value, onChange, addKeyLink, preferred }: Props) {
  const { t } = useTranslation('chat');
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const current = models.find((m) => m.id === value);
  // The preferred model cannot run here and another one is in use: say so (whether picked for or by the person).
  const replaced = Boolean(
    preferred && value !== preferred && current?.available && models.some((m) => m.id === preferred && !m.available),
  );
  // Usable models first; the others below, with what to do about them.
  const groups = [
    { key: 'available' as const, models: models.filter((m) => m.available) },
    { key: 'needsKey' as const, models: models.filter((m) => !m.available) },
  ].filter((g) => g.models.length > 0);
  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey, true);
    root.current?.querySelector<HTMLInputElement>('input:checked:not(:disabled), input:not(:disabled)')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
        className={cn(
          'inline-flex max-w-full items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:text-zinc-100 dark:hover:bg-zinc-800',
          focusRing,
        )}
      >
        <span className="sr-only">{t('models.label')}: </span>
        <span className="truncate">{current ? modelName(t, current) : t('models.choose')}</span>
        {current && <TierBadge tier={current.tier} />}
        <ChevronDownIcon className="shrink-0 text-zinc-400" />
      </button>
      {open && (
        <div
          id={`${id}-panel`}
          className="absolute left-0 top-full z-40 mt-1 max-h-[min(32rem,70vh)] w-[min(22rem,calc(100vw-2rem))] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {groups.map((group) => (
            <fieldset
              key={group.key}
              className="[&+&]:mt-1 [&+&]:border-t [&+&]:border-zinc-100 [&+&]:pt-1 dark:[&+&]:border-zinc-800"
            >
              <legend className="flex w-full items-center justify-between gap-2 px-2 pb-1 pt-1 text-xs font-semibold uppercase tracking-wide text-zinc-400">
                {t(`models.groups.${group.key}`)}
              </legend>
              {group.key === 'needsKey' && (
                <p className="px-2 pb-1 text-xs text-zinc-500 dark:text-zinc-400">
                  {t('models.unavailable')}{' '}
                  {addKeyLink(
                    cn('font-medium text-blue-600 hover:underline dark:text-blue-400', focusRing),
                    t('models.addKeyShort'),
                  )}
                </p>
              )}
              <ul className="space-y-0.5">
                {group.models.map((model) => (
                  <li key={model.id}>
                    <label
                      className={cn(
                        'flex items-start gap-3 rounded-lg px-2 py-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
                        model.available
                          ? 'cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800'
                          : 'cursor-not-allowed text-zinc-400',
                        model.id === value && 'bg-blue-50/60 dark:bg-blue-500/10',
                      )}
                    >
                      <input
                        type="radio"
                        name={`${id}-model`}
                        value={model.id}
                        checked={model.id === value}
                        disabled={!model.available}
                        aria-describedby={model.available ? undefined : `${id}-needs-key`}
                        onChange={() => onChange(model.id)}
                        // Arrow keys pick without closing (they also fire click, with detail 0); a pointer click,
                        // Enter or Space confirms and closes.
                        onClick={(event) => {
                          if (event.detail > 0) close();
                        }}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter' || event.key === ' ') {
                            event.preventDefault();
                            onChange(model.id);
                            close();
                          }
                        }}
                        className="mt-1 accent-blue-500 focus:outline-none"
                      />
                      <span className="min-w-0 flex-1">
                        <span className="flex flex-wrap items-center gap-1.5">
                          <span
                            className={cn(
                              'text-sm font-medium',
                              model.available ? 'text-zinc-900 dark:text-zinc-100' : 'text-zinc-500',
                            )}
                          >
                            {modelName(t, model)}
                          </span>
                          <TierBadge tier={model.tier} />
                          <span className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
                            {t('models.context', { size: contextLabel(model.contextWindow) })}
                          </span>
                        </span>
                        {model.available && (
                          <span className="mt-0.5 block text-xs text-zinc-500 dark:text-zinc-400">
                            {model.keySource === 'own'
                              ? t('models.ownKey')
                              : model.capabilities.vision
                                ? t('models.vision')
                                : t('models.textOnly')}
                          </span>
                        )}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
          <span id={`${id}-needs-key`} hidden>
            {t('models.unavailable')}
          </span>
        </div>
      )}
      {replaced && <ModelFallbackNote models={models} preferred={preferred} using={value} className="px-2.5" />}
    </div>
  );
}
