import { useTranslation } from 'react-i18next';
import { FREE_ALLOWANCE } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { Card } from '@parley/ui';

const KEYS = ['dailyCredit', 'basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;

/** Step 3: what the free plan includes. No payment yet. */
export function PlanStep() {
  const { t, i18n } = useTranslation('onboarding');
  return (
    <Card className="space-y-4 p-6">
      <div className="flex items-baseline justify-between">
        <h2 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('plan.free')}</h2>
        <span className="text-sm font-medium text-blue-600 dark:text-blue-400">{t('plan.price')}</span>
      </div>
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {KEYS.map((key) => (
          <li key={key} className="flex items-center justify-between py-2 text-sm">
            <span className="text-zinc-600 dark:text-zinc-400">{t(`plan.${key}`)}</span>
            <span className="font-semibold tabular-nums text-zinc-900 dark:text-zinc-100">
              {formatNumber(FREE_ALLOWANCE[key], i18n.language)}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('plan.note')}</p>
    </Card>
  );
}
