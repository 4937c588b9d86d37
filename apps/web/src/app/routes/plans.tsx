import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@parley/ui';
import {
  CheckoutHandoff,
  PaymentConfirmation,
  PlanChooser,
  PlanSettings,
  useCurrentPlan,
  usePaymentPlans,
} from '../../features/plans';
import { SettingsPage } from '../../features/settings';
import { FullScreenLoading } from '../../features/shell';
import { errorMessage } from '../../lib/api';

/** Where the plan pages lead one another. */
export const PLAN_PATHS = {
  plans: '/subscription',
  checkout: '/payment-call',
  settings: '/setting/plan',
  home: '/home',
} as const;

function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('plans');
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(error)}</p>
        <Button variant="secondary" onClick={onRetry}>
          {t('retry')}
        </Button>
      </Alert>
    </div>
  );
}

/** /subscription: the plan chooser, behind the full-screen overlay while the plans and the current plan load. */
export function SubscriptionPage() {
  const plans = usePaymentPlans();
  const current = useCurrentPlan();
  if (plans.isError || current.isError) {
    return (
      <LoadFailed
        error={plans.error ?? current.error}
        onRetry={() => {
          if (plans.isError) void plans.refetch();
          if (current.isError) void current.refetch();
        }}
      />
    );
  }
  if (!plans.data || !current.data) return <FullScreenLoading />;
  return <PlanChooser plans={plans.data} current={current.data} paths={PLAN_PATHS} />;
}

/** /payment-call: hands over to the hosted checkout. */
export function PaymentCallPage() {
  return <CheckoutHandoff plansPath={PLAN_PATHS.plans} />;
}

/** /paymentSuccess: the payment is checked with the server before anything is said to be granted. */
export function PaymentSuccessPage() {
  return <PaymentConfirmation paths={PLAN_PATHS} />;
}

/** /setting/plan: the plan, its subscription and what can be done with it. */
export function PlanSettingsPage() {
  const { t } = useTranslation('plans');
  const current = useCurrentPlan();
  return (
    <SettingsPage title={t('settings.title')} description={t('settings.subtitle')}>
      {current.isError ? (
        <LoadFailed error={current.error} onRetry={() => void current.refetch()} />
      ) : current.data ? (
        <PlanSettings current={current.data} plansPath={PLAN_PATHS.plans} />
      ) : (
        <FullScreenLoading />
      )}
    </SettingsPage>
  );
}
