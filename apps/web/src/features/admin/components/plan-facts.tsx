import { useTranslation } from 'react-i18next';
import type { AdminUserPlan } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Fact, Facts } from './facts';

/** The plan that pays for a person (/api/admin/userPlan): plan, the plan without payment, and its subscription. */
export function PlanFacts({ plan }: { plan: AdminUserPlan['plan'] }) {
  // Plan names and statuses are the plan pages' words.
  const { t, i18n } = useTranslation(['admin', 'plans']);
  const lng = i18n.language;
  const subscription = plan.subscription;
  return (
    <Facts>
      <Fact label={t('fields.plan')}>{t(`plans:names.${plan.plan}`)}</Fact>
      <Fact label={t('fields.basePlan')}>{t(`plans:names.${plan.basePlan}`)}</Fact>
      {subscription && (
        <>
          <Fact label={t('fields.subscription')}>
            {t(`plans:names.${subscription.plan}`)} · {t(`plans:status.${subscription.status}`)} ·{' '}
            {t(`sources.${subscription.source}`)}
          </Fact>
          {subscription.currentPeriodEnd && (
            <Fact label={t('fields.periodEnd')}>{formatDate(subscription.currentPeriodEnd, lng)}</Fact>
          )}
          <Fact label={t('fields.seats')}>{formatNumber(subscription.quantity, lng)}</Fact>
        </>
      )}
    </Facts>
  );
}
