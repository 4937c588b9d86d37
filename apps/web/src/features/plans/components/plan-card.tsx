import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanOffer, Promo } from '@parley/contract';
import { MAX_SEATS, type PlanDuration } from '@parley/contract/values';
import { formatPrice } from '@parley/i18n';
import { Button, Card, cn } from '@parley/ui';
import { priceOf, withPromo } from '../pricing';
import { AllowanceList } from './allowance-list';

/** What the card's main button does: nothing (the current plan), a checkout, or a change of the subscription. */
export type CardAction = 'current' | 'choose' | 'upgrade' | 'change';

type Props = {
  offer: PlanOffer;
  duration: PlanDuration;
  student: boolean;
  seats: number;
  onSeatsChange: (seats: number) => void;
  action: CardAction;
  /** Buttons off (payments not set up, or the subscription cannot be changed now). */
  disabled: boolean;
  busy?: boolean;
  promo?: Promo | null | undefined;
  /** Days of the free trial offered on this card, if any. */
  trialDays?: number | null;
  onAction: () => void;
  onTrial?: () => void;
};

/** One plan: name, price for the period (per seat for Team), allowance, and its button. */
export function PlanCard({
  offer,
  duration,
  student,
  seats,
  onSeatsChange,
  action,
  disabled,
  busy = false,
  promo,
  trialDays,
  onAction,
  onTrial,
}: Props) {
  const { t, i18n } = useTranslation('plans');
  const lng = i18n.language;
  const headingId = useId();
  const name = t(`names.${offer.id}`);
  const price = priceOf(offer, duration, student);
  const regular = priceOf(offer, duration, false);
  const studentPrice = Boolean(student && price && regular && price.amount !== regular.amount);
  // While the seats field holds no valid count, nothing is priced or bought for the count before it.
  const [seatsValid, setSeatsValid] = useState(true);
  const total = price && offer.perSeat && seats > 1 && seatsValid ? { ...price, amount: price.amount * seats } : null;
  const promoted = price && promo && action === 'choose' ? withPromo(total ?? price, promo) : null;
  const isCurrent = action === 'current';

  const label = {
    current: t('actions.current'),
    choose: t('actions.choose'),
    upgrade: t('actions.upgrade'),
    change: t('actions.change'),
  }[action];
  const accessibleLabel = isCurrent
    ? t('actions.currentPlan', { plan: name })
    : t(`actions.${action}Plan`, { plan: name });

  return (
    <Card
      className={cn(
        'flex h-full flex-col gap-4',
        isCurrent && 'border-blue-400 ring-1 ring-blue-400 dark:border-blue-500 dark:ring-blue-500',
      )}
      aria-labelledby={headingId}
      role="group"
      data-testid={`offer-${offer.id}`}
    >
      <div className="space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
            {name}
          </h3>
          {isCurrent && (
            <span className="rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700 dark:bg-blue-500/15 dark:text-blue-300">
              {t('actions.current')}
            </span>
          )}
        </div>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t(`taglines.${offer.id}`)}</p>
      </div>

      <div className="space-y-1">
        {price ? (
          <>
            <p className="flex flex-wrap items-baseline gap-x-2">
              {studentPrice && regular && (
                <s className="text-base text-zinc-400 dark:text-zinc-500">
                  <span className="sr-only">{t('price.regular')} </span>
                  {formatPrice(regular.amount, regular.currency, lng)}
                </s>
              )}
              <span className="text-3xl font-semibold tracking-tight tabular-nums text-zinc-900 dark:text-zinc-50">
                {formatPrice(price.amount, price.currency, lng)}
              </span>
              <span className="text-sm text-zinc-500 dark:text-zinc-400">
                {offer.perSeat ? t(`price.perSeat.${duration}`) : t(`price.per.${duration}`)}
              </span>
            </p>
            {duration === 'year' && (
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {t(offer.perSeat ? 'price.monthlyEquivalentPerSeat' : 'price.monthlyEquivalent', {
                  price: formatPrice(price.amount / 12, price.currency, lng),
                })}
              </p>
            )}
            {studentPrice && (
              <p className="text-xs font-medium text-emerald-700 dark:text-emerald-300">{t('price.studentApplied')}</p>
            )}
            {total && (
              <p className="text-sm font-medium text-zinc-700 dark:text-zinc-200">
                {t(`price.total.${duration}`, {
                  price: formatPrice(total.amount, total.currency, lng),
                  seats,
                })}
              </p>
            )}
            {promoted && promo && (
              <p className="text-sm font-medium text-emerald-700 dark:text-emerald-300">
                {t(
                  `price.withPromo.${promo.duration === 'repeating' && promo.durationInMonths ? 'repeating' : promo.duration === 'forever' ? 'forever' : 'once'}`,
                  {
                    code: promo.code,
                    price: formatPrice(promoted.amount, promoted.currency, lng),
                    months: promo.durationInMonths,
                  },
                )}
              </p>
            )}
          </>
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">{t(`price.notSold.${duration}`)}</p>
        )}
      </div>

      {offer.perSeat && <SeatsField seats={seats} onChange={onSeatsChange} onValidChange={setSeatsValid} />}

      <AllowanceList
        allowance={offer.allowance}
        perSeat={offer.perSeat}
        seats={seatsValid ? seats : 1}
        gated={offer.gated}
        ownKeys={offer.ownKeys}
        className="border-t border-zinc-100 pt-4 dark:border-zinc-800"
      />

      <div className="mt-auto space-y-2 pt-2">
        <Button
          className="w-full"
          variant={isCurrent ? 'secondary' : 'primary'}
          disabled={isCurrent || disabled || !price || !seatsValid}
          loading={busy}
          onClick={onAction}
          aria-label={accessibleLabel}
        >
          {label}
        </Button>
        {trialDays && onTrial && !isCurrent && (
          <Button className="w-full" variant="ghost" disabled={disabled || !price || !seatsValid} onClick={onTrial}>
            {t('trial.start', { days: trialDays })}
          </Button>
        )}
      </div>
    </Card>
  );
}

/**
 * Seats of a Team subscription, 1 to MAX_SEATS. What is typed may be out of range for a moment: the card then prices
 * and sells nothing (`onValidChange`), and on leaving the field a count over the range becomes the largest, anything
 * else not a count the last valid one.
 */
function SeatsField({
  seats,
  onChange,
  onValidChange,
}: {
  seats: number;
  onChange: (seats: number) => void;
  onValidChange: (valid: boolean) => void;
}) {
  const { t } = useTranslation('plans');
  const id = useId();
  const [text, setText] = useState(String(seats));
  const isCount = (value: string) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_SEATS;
  const valid = isCount(text);
  const show = (value: string) => {
    setText(value);
    onValidChange(isCount(value));
    if (isCount(value)) onChange(Number(value));
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {t('seats.label')}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_SEATS}
        step={1}
        value={text}
        onChange={(e) => show(e.target.value)}
        onBlur={() => {
          if (valid) return;
          show(/^\d+$/.test(text) && Number(text) > MAX_SEATS ? String(MAX_SEATS) : String(seats));
        }}
        aria-invalid={valid ? undefined : true}
        aria-describedby={`${id}-hint`}
        className={cn(
          'block w-28 rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs focus:outline-none focus:ring-2 dark:bg-zinc-900 dark:text-zinc-100',
          valid
            ? 'border-zinc-300 focus:border-blue-500 focus:ring-blue-500/40 dark:border-zinc-700'
            : 'border-red-500 focus:border-red-500 focus:ring-red-500/40 dark:border-red-400',
        )}
      />
      <p
        id={`${id}-hint`}
        className={cn('text-xs', valid ? 'text-zinc-500 dark:text-zinc-400' : 'text-red-600 dark:text-red-400')}
      >
        {t('seats.hint', { max: MAX_SEATS })}
      </p>
    </div>
  );
}
