import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { MAX_SEATS, PAID_PLAN_IDS, PLAN_DURATIONS, type PaidPlanId, type PlanDuration } from '@parley/contract/values';
import { Alert, Card, Spinner, buttonClasses } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { leaveFor, paymentPages } from '../api/plans-api';
import { LockIcon } from './icons';

type Handoff =
  | { trial: true; plan: PaidPlanId; planDuration: PlanDuration }
  | {
      trial: false;
      plan: PaidPlanId;
      planDuration: PlanDuration;
      quantity: number;
      promoCode?: string;
      student?: '1';
    };

const isFlag = (value: string | null) => value === '1' || value === 'true';

/** Reads /payment-call?plan&planDuration&quantity&promoCode&student&trial=1; null when it names no plan on sale. */
export function readHandoff(params: URLSearchParams): Handoff | null {
  const plan = params.get('plan') as PaidPlanId | null;
  const planDuration = (params.get('planDuration') ?? 'month') as PlanDuration;
  if (!plan || !PAID_PLAN_IDS.includes(plan) || !PLAN_DURATIONS.includes(planDuration)) return null;
  if (isFlag(params.get('trial'))) return { trial: true, plan, planDuration };
  const quantity = Number(params.get('quantity') ?? '1');
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_SEATS) return null;
  const promoCode = params.get('promoCode')?.trim();
  return {
    trial: false,
    plan,
    planDuration,
    quantity,
    ...(promoCode ? { promoCode } : {}),
    ...(isFlag(params.get('student')) ? { student: '1' as const } : {}),
  };
}

/**
 * /payment-call: asks the server for a hosted checkout (or the free trial's) for the plan in the address, and
 * leaves for it. A failure is said in the person's language, with the way back to the plans.
 */
export function CheckoutHandoff({ plansPath }: { plansPath: string }) {
  const { t } = useTranslation('plans');
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(false);
  const handoff = useMemo(() => readHandoff(params), [params]);

  useEffect(() => {
    if (!handoff || asked.current) return;
    asked.current = true;
    const { trial, ...query } = handoff;
    const page = trial
      ? paymentPages.trial({ plan: query.plan, planDuration: query.planDuration })
      : paymentPages.checkout(query);
    page.then(leaveFor).catch((e: unknown) => setError(errorMessage(e)));
  }, [handoff]);

  const problem = handoff ? error : t('handoff.invalid');
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md flex-col justify-center px-4 py-10">
      <Card className="space-y-4 p-6 text-center">
        {problem ? (
          <>
            <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('handoff.failedTitle')}</h1>
            <Alert tone="error" className="text-left">
              {problem}
            </Alert>
            <Link to={plansPath} className={buttonClasses('primary', 'w-full')}>
              {t('handoff.back')}
            </Link>
          </>
        ) : (
          <div role="status" aria-live="polite" className="flex flex-col items-center gap-3 py-4">
            <Spinner className="h-8 w-8 text-blue-500" />
            <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('handoff.title')}</h1>
            <p className="flex items-center gap-1.5 text-sm text-zinc-500 dark:text-zinc-400">
              <LockIcon width="1em" height="1em" />
              {t('handoff.secure')}
            </p>
          </div>
        )}
      </Card>
    </div>
  );
}
