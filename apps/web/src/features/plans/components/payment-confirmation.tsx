import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { CurrentPlan, Subscription } from '@parley/contract';
import { isPaidPlan, PLANS } from '@parley/contract/values';
import { formatDate } from '@parley/i18n';
import { Alert, Button, Card, Spinner, buttonClasses } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { useConfirmCheckout, useCurrentPlan, usePaymentPlans } from '../api/plans-api';
import { isLive } from '../pricing';
import { AllowanceList } from './allowance-list';
import { CheckMarkIcon } from './icons';

/** How often, and how long, the page asks whether the payment has arrived. */
export const CONFIRM_POLL_MS = 1000;
export const CONFIRM_WAIT_MS = 30_000;
const SESSION_ID = /^cs_[A-Za-z0-9_]+$/;

/** The payment is applied: a paid plan held by a subscription that is running. */
type PaidPlan = CurrentPlan & { subscription: Subscription };
const isPaid = (plan: CurrentPlan | undefined): plan is PaidPlan =>
  Boolean(plan && isPaidPlan(plan.plan) && isLive(plan.subscription) && plan.subscription.plan === plan.plan);

type Phase = 'confirming' | 'waiting' | 'done' | 'notFound' | 'failed';

/**
 * /paymentSuccess?session_id=cs_…: the address proves nothing, so the server is asked to check the checkout with the
 * payment provider; then the plan is read every second (for up to 30 s) until the payment shows. An unknown or unpaid
 * checkout says that no payment was found, and shows nothing as granted.
 */
export function PaymentConfirmation({ paths }: { paths: { home: string; plans: string; settings: string } }) {
  const { t, i18n } = useTranslation('plans');
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const validId = SESSION_ID.test(sessionId) && sessionId.length <= 255;
  const confirm = useConfirmCheckout();
  const [phase, setPhase] = useState<Phase>(validId ? 'confirming' : 'notFound');
  const [problem, setProblem] = useState<string | null>(null);
  const current = useCurrentPlan({ refetchInterval: phase === 'waiting' ? CONFIRM_POLL_MS : false });
  const asked = useRef(false);
  const { mutate } = confirm;

  const ask = () => {
    setPhase('confirming');
    setProblem(null);
    mutate(sessionId, {
      onSuccess: (plan) => setPhase(isPaid(plan) ? 'done' : 'waiting'),
      onError: (error) => {
        setProblem(errorMessage(error));
        // The server looked and found no such paid checkout: a visit to this address alone grants nothing.
        const notFound = error instanceof ApiError && error.status >= 400 && error.status < 500;
        setPhase(notFound ? 'notFound' : 'failed');
      },
    });
  };

  useEffect(() => {
    if (!validId || asked.current) return;
    asked.current = true;
    ask();
    // Once per visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [validId]);

  // Waiting for the provider's event: done as soon as the plan shows as paid; after 30 s, no payment was found.
  useEffect(() => {
    if (phase !== 'waiting') return;
    if (isPaid(current.data)) {
      setPhase('done');
      return;
    }
    const timer = setTimeout(() => setPhase('notFound'), CONFIRM_WAIT_MS);
    return () => clearTimeout(timer);
  }, [phase, current.data]);

  const plan = phase === 'done' ? (isPaid(confirm.data) ? confirm.data : current.data) : undefined;

  return (
    <div className="mx-auto flex min-h-[60vh] max-w-lg flex-col justify-center px-4 py-10">
      <Card className="space-y-5 p-6">
        {phase === 'confirming' || phase === 'waiting' ? (
          <div role="status" aria-live="polite" className="flex flex-col items-center gap-3 py-6 text-center">
            <Spinner className="h-8 w-8 text-blue-500" />
            <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('success.confirming')}</h1>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('success.confirmingHint')}</p>
          </div>
        ) : phase === 'done' && plan && isPaid(plan) ? (
          <Done plan={plan} paths={paths} lng={i18n.language} />
        ) : phase === 'failed' ? (
          <div className="space-y-4">
            <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('success.failedTitle')}</h1>
            <Alert tone="error">{problem}</Alert>
            <div className="flex flex-wrap gap-2">
              <Button onClick={ask}>{t('success.retry')}</Button>
              <Link to={paths.settings} className={buttonClasses('secondary')}>
                {t('success.toSettings')}
              </Link>
            </div>
          </div>
        ) : (
          <div className="space-y-4">
            <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('success.notFoundTitle')}</h1>
            <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('success.notFoundBody')}</p>
            {problem && <Alert tone="error">{problem}</Alert>}
            <div className="flex flex-wrap gap-2">
              <Link to={paths.plans} className={buttonClasses('primary')}>
                {t('success.toPlans')}
              </Link>
              <Link to={paths.settings} className={buttonClasses('secondary')}>
                {t('success.toSettings')}
              </Link>
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}

function Done({ plan, paths, lng }: { plan: PaidPlan; paths: { home: string; settings: string }; lng: string }) {
  const { t } = useTranslation('plans');
  const sub = plan.subscription;
  const name = t(`names.${plan.plan}`);
  const until = sub.trialEnd ?? sub.currentPeriodEnd;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // The server's allowance (its plans file may differ from the defaults).
  const offer = usePaymentPlans().data?.plans.find((o) => o.id === sub.plan);
  const defaults = PLANS[plan.plan];
  return (
    <div className="space-y-5">
      <div className="flex flex-col items-center gap-2 text-center">
        <span className="inline-flex rounded-full bg-emerald-50 p-3 text-2xl text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-300">
          <CheckMarkIcon />
        </span>
        <h1
          ref={heading}
          tabIndex={-1}
          className="text-xl font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50"
        >
          {t('success.title', { plan: name })}
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          {[
            t(`billing.${sub.duration}`),
            sub.plan === 'team' ? t('settings.seatsValue', { seats: sub.quantity }) : null,
            until
              ? t(sub.status === 'trialing' ? 'success.trialUntil' : 'success.renews', { date: formatDate(until, lng) })
              : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </div>
      <AllowanceList
        allowance={offer?.allowance ?? defaults.allowance}
        perSeat={offer?.perSeat ?? defaults.perSeat}
        seats={sub.quantity}
        gated={offer?.gated ?? defaults.gated}
        ownKeys={offer?.ownKeys ?? defaults.ownKeys}
        className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
      />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link to={paths.home} className={buttonClasses('primary', 'flex-1')}>
          {t('success.toHome')}
        </Link>
        <Link to={paths.settings} className={buttonClasses('secondary', 'flex-1')}>
          {t('success.toSettings')}
        </Link>
      </div>
    </div>
  );
}
