import { useTranslation } from 'react-i18next';
import type { Allowance } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { cn } from '@parley/ui';
import { CheckMarkIcon } from './icons';

const MONTHLY = ['basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;

/**
 * What a plan gives: daily credits, the month's credits per model tier (per seat for Team, or for `seats` seats),
 * and whether the free tier's daily limit or own keys apply.
 */
export function AllowanceList({
  allowance,
  perSeat = false,
  seats = 1,
  gated = false,
  ownKeys = false,
  className,
}: {
  allowance: Allowance;
  perSeat?: boolean;
  seats?: number;
  gated?: boolean;
  ownKeys?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation('plans');
  const lng = i18n.language;
  const times = perSeat ? Math.max(1, seats) : 1;
  return (
    <div className={cn('space-y-3', className)}>
      <dl className="space-y-1.5 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-zinc-600 dark:text-zinc-300">{t('allowance.dailyCredit')}</dt>
          <dd className="whitespace-nowrap text-right font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
            {t('allowance.perDay', { amount: formatNumber(allowance.dailyCredit * times, lng) })}
          </dd>
        </div>
        {MONTHLY.map((key) => (
          <div key={key} className="flex justify-between gap-3">
            <dt className="text-zinc-600 dark:text-zinc-300">{t(`allowance.${key}`)}</dt>
            <dd className="whitespace-nowrap text-right font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
              {allowance[key] > 0
                ? t('allowance.perMonth', { amount: formatNumber(allowance[key] * times, lng) })
                : t('allowance.none')}
            </dd>
          </div>
        ))}
      </dl>
      <ul className="space-y-1 text-sm text-zinc-600 dark:text-zinc-300">
        {perSeat && (
          <li className="flex gap-2">
            <CheckMarkIcon className="mt-0.5 shrink-0 text-blue-500" width="1em" height="1em" />
            {seats > 1 ? t('allowance.forSeats', { seats }) : t('allowance.perSeat')}
          </li>
        )}
        {!gated && (
          <li className="flex gap-2">
            <CheckMarkIcon className="mt-0.5 shrink-0 text-blue-500" width="1em" height="1em" />
            {t('allowance.noDailyLimit')}
          </li>
        )}
        {ownKeys && (
          <li className="flex gap-2">
            <CheckMarkIcon className="mt-0.5 shrink-0 text-blue-500" width="1em" height="1em" />
            {t('allowance.ownKeys')}
          </li>
        )}
      </ul>
    </div>
  );
}
