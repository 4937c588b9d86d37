import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Promo } from '@parley/contract';
import type { PlanDuration } from '@parley/contract/values';
import { formatNumber, formatPrice } from '@parley/i18n';
import { Button, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { usePromoCode } from '../api/plans-api';

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** What a code gives, in words: "20% off the first payment", "$5 off for 3 months". */
export function usePromoSummary() {
  const { t, i18n } = useTranslation('plans');
  return (promo: Promo) => {
    const discount =
      promo.percentOff !== null
        ? formatNumber(promo.percentOff / 100, i18n.language, { style: 'percent', maximumFractionDigits: 2 })
        : promo.amountOff !== null && promo.currency
          ? formatPrice(promo.amountOff, promo.currency, i18n.language)
          : null;
    const when =
      promo.duration === 'repeating' && promo.durationInMonths
        ? t('promo.duration.repeating', { months: promo.durationInMonths })
        : promo.duration === 'forever'
          ? t('promo.duration.forever')
          : t('promo.duration.once');
    return discount ? t('promo.gives', { code: promo.code, discount, when }) : t('promo.valid', { code: promo.code });
  };
}

/**
 * A promotion code with Apply: the payment provider says what it gives (or the localized reason it gives nothing);
 * an accepted code is handed to the checkout.
 */
export function PromoCodeField({
  duration,
  applied,
  onChange,
  disabled = false,
}: {
  duration: PlanDuration;
  applied: Promo | null;
  onChange: (promo: Promo | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('plans');
  const id = useId();
  const summary = usePromoSummary();
  const [text, setText] = useState(applied?.code ?? '');
  const [asked, setAsked] = useState(applied?.code ?? '');
  const [formatError, setFormatError] = useState(false);
  const promo = usePromoCode(asked, undefined, duration);

  useEffect(() => {
    if (!asked) return;
    if (promo.data && promo.data.code.toLowerCase() === asked.toLowerCase()) onChange(promo.data);
    else if (promo.isError) onChange(null);
  }, [asked, promo.data, promo.isError, onChange]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const code = text.trim();
    if (!CODE.test(code)) {
      setFormatError(true);
      return;
    }
    setFormatError(false);
    setAsked(code);
  };
  const remove = () => {
    setText('');
    setAsked('');
    setFormatError(false);
    onChange(null);
  };

  const error = formatError ? t('promo.format') : asked && promo.isError ? errorMessage(promo.error) : null;
  const accepted = applied && asked && applied.code.toLowerCase() === asked.toLowerCase() ? applied : null;

  return (
    <form onSubmit={apply} noValidate className="space-y-1.5" aria-label={t('promo.label')}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {t('promo.label')}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFormatError(false);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          disabled={disabled}
          placeholder={t('promo.placeholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : accepted ? `${id}-ok` : undefined}
          className={cn(
            'block w-full min-w-0 rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:outline-none focus:ring-2 disabled:bg-zinc-100 dark:bg-zinc-900 dark:text-zinc-100 dark:disabled:bg-zinc-800',
            error
              ? 'border-red-500 focus:border-red-500 focus:ring-red-500/40 dark:border-red-400'
              : 'border-zinc-300 focus:border-blue-500 focus:ring-blue-500/40 dark:border-zinc-700',
          )}
        />
        <Button
          type="submit"
          variant="secondary"
          className="shrink-0"
          disabled={disabled || !text.trim()}
          loading={Boolean(asked) && promo.isFetching}
        >
          {t('promo.apply')}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      {accepted && (
        <p id={`${id}-ok`} role="status" className="flex flex-wrap items-center gap-x-2 text-xs">
          <span className="font-medium text-emerald-700 dark:text-emerald-300">{summary(accepted)}</span>
          <button
            type="button"
            onClick={remove}
            className={cn('rounded text-zinc-500 underline hover:text-zinc-800 dark:hover:text-zinc-200', focusRing)}
          >
            {t('promo.remove')}
          </button>
        </p>
      )}
    </form>
  );
}
