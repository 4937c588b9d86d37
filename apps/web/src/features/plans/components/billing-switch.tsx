import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAN_DURATIONS, type PlanDuration } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { cn } from '@parley/ui';

/**
 * Monthly or Yearly, as a pair of radio buttons (arrow keys move between them), with what a year saves at best.
 */
export function BillingSwitch({
  value,
  onChange,
  saving,
}: {
  value: PlanDuration;
  onChange: (duration: PlanDuration) => void;
  /** The best yearly saving, whole percent; 0 says nothing. */
  saving: number;
}) {
  const { t, i18n } = useTranslation('plans');
  const name = useId();
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">{t('billing.label')}</legend>
      <div className="inline-flex rounded-lg border border-zinc-200 bg-white p-1 dark:border-zinc-800 dark:bg-zinc-900">
        {PLAN_DURATIONS.map((duration) => (
          <label
            key={duration}
            className={cn(
              'relative cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
              value === duration
                ? 'bg-blue-500 text-white'
                : 'text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
            )}
          >
            <input
              type="radio"
              name={name}
              value={duration}
              checked={value === duration}
              onChange={() => onChange(duration)}
              className="sr-only"
            />
            {t(`billing.${duration}`)}
          </label>
        ))}
      </div>
      {saving > 0 && (
        <span className="rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
          {t('billing.saveUpTo', { percent: formatNumber(saving / 100, i18n.language, { style: 'percent' }) })}
        </span>
      )}
    </fieldset>
  );
}
