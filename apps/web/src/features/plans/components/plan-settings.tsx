import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { CurrentPlan, SubscriptionAction } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, buttonClasses } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { leaveFor, paymentPages, useSubscriptionAction } from '../api/plans-api';

type Confirmable = 'cancel' | 'reactivate' | 'remove';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="text-sm font-medium text-zinc-900 sm:text-right dark:text-zinc-50">{children}</dd>
    </div>
  );
}

/**
 * /setting/plan: the plan and its subscription (status, dates, seats, code, student price) and the actions the
 * server offers for it now: Upgrade, Cancel Subscription, Reactivate Plan, Renew Subscription, Remove Subscription,
 * and the payment provider's portal for invoices and payment methods.
 */
export function PlanSettings({ current, plansPath }: { current: CurrentPlan; plansPath: string }) {
  const { t, i18n } = useTranslation('plans');
  const lng = i18n.language;
  const sub = current.subscription;
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const [leaving, setLeaving] = useState<'renew' | 'portal' | null>(null);
  const cancel = useSubscriptionAction('cancelSubscription');
  const reactivate = useSubscriptionAction('reactivateSubscription');
  const remove = useSubscriptionAction('removeSubscription');
  const mutations = { cancel, reactivate, remove };
  const planName = t(`names.${current.plan}`);
  const baseName = t(`names.${current.basePlan}`);
  const date = (value: string | null | undefined) => (value ? formatDate(value, lng) : '');
  const has = (action: SubscriptionAction) => current.actions.includes(action);

  const run = (action: Confirmable) => {
    mutations[action].mutate(undefined, {
      onSuccess: (plan) => {
        toast.success(
          t(`settings.done.${action}`, {
            date: date(plan.subscription?.currentPeriodEnd),
            plan: t(`names.${plan.plan}`),
          }),
        );
        setConfirming(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setConfirming(null);
      },
    });
  };
  const leave = (to: 'renew' | 'portal') => {
    setLeaving(to);
    (to === 'renew' ? paymentPages.renewal() : paymentPages.portal()).then(leaveFor).catch((error: unknown) => {
      toast.error(errorMessage(error));
      setLeaving(null);
    });
  };

  const periodEnd = date(sub?.currentPeriodEnd);
  const dialog: Record<Confirmable, { title: string; body: string; confirm: string; tone: 'primary' | 'danger' }> = {
    cancel: {
      title: t('settings.confirm.cancel.title'),
      body: periodEnd
        ? t('settings.confirm.cancel.body', { plan: planName, date: periodEnd, base: baseName })
        : t('settings.confirm.cancel.bodyNoDate', { plan: planName, base: baseName }),
      confirm: t('settings.confirm.cancel.confirm'),
      tone: 'danger',
    },
    reactivate: {
      title: t('settings.confirm.reactivate.title'),
      body: periodEnd
        ? t('settings.confirm.reactivate.body', { plan: planName, date: periodEnd })
        : t('settings.confirm.reactivate.bodyNoDate', { plan: planName }),
      confirm: t('settings.confirm.reactivate.confirm'),
      tone: 'primary',
    },
    remove: {
      title: t('settings.confirm.remove.title'),
      body: t('settings.confirm.remove.body', { plan: planName, base: baseName }),
      confirm: t('settings.confirm.remove.confirm'),
      tone: 'danger',
    },
  };
  const open = confirming ? dialog[confirming] : null;

  return (
    <div className="space-y-6">
      {!current.paymentsEnabled && (
        <Alert tone="info">
          <p className="font-medium">{t('disabled.title')}</p>
          <p>{t('disabled.body')}</p>
        </Alert>
      )}

      <Card className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('settings.plan')}</p>
            <h2 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">{planName}</h2>
          </div>
          {sub && (
            <span
              className={
                sub.status === 'active' || sub.status === 'trialing'
                  ? 'rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300'
                  : 'rounded-full bg-amber-50 px-2.5 py-1 text-xs font-medium text-amber-800 dark:bg-amber-500/15 dark:text-amber-300'
              }
            >
              {t(`status.${sub.status}`)}
            </span>
          )}
        </div>

        {sub ? (
          <>
            {sub.cancelAtPeriodEnd && periodEnd && (
              <Alert tone="info">{t('settings.endsOn', { date: periodEnd, base: baseName })}</Alert>
            )}
            {sub.graceUntil && (
              <Alert tone="error">{t('settings.grace', { date: date(sub.graceUntil), base: baseName })}</Alert>
            )}
            <dl className="divide-y divide-zinc-100 dark:divide-zinc-800">
              <Row label={t('settings.subscription')}>
                {t(`names.${sub.plan}`)} · {t(`billing.${sub.duration}`)}
              </Row>
              <Row label={t('settings.status')}>{t(`status.${sub.status}`)}</Row>
              <Row label={t('settings.validFrom')}>{date(sub.validFrom)}</Row>
              {sub.trialEnd && sub.status === 'trialing' && (
                <Row label={t('settings.trialEnds')}>{date(sub.trialEnd)}</Row>
              )}
              {sub.currentPeriodEnd && (
                <Row
                  label={sub.cancelAtPeriodEnd || sub.status === 'canceled' ? t('settings.ends') : t('settings.renews')}
                >
                  {periodEnd}
                </Row>
              )}
              {sub.daysRemaining !== null && (
                <Row label={t('settings.daysRemaining')}>{formatNumber(Math.max(0, sub.daysRemaining), lng)}</Row>
              )}
              <Row label={t('settings.seats')}>{formatNumber(sub.quantity, lng)}</Row>
              <Row label={t('settings.promoCode')}>{sub.promoCode ?? t('settings.none')}</Row>
              <Row label={t('settings.student')}>
                {sub.student ? t('settings.studentYes') : t('settings.studentNo')}
              </Row>
              {sub.source === 'admin' && <Row label={t('settings.source')}>{t('settings.byAdmin')}</Row>}
            </dl>
          </>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('settings.noSubscription', { plan: planName })}</p>
        )}
        {current.studentEmail && (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            {t('student.verified', { email: current.studentEmail })}
          </p>
        )}
      </Card>

      <section aria-labelledby="plan-actions" className="space-y-3">
        <h2
          id="plan-actions"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('settings.actions')}
        </h2>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <Link to={plansPath} className={buttonClasses(has('upgrade') ? 'primary' : 'secondary')}>
            {has('upgrade') ? t('actions.upgrade') : t('settings.seePlans')}
          </Link>
          {has('reactivate') && <Button onClick={() => setConfirming('reactivate')}>{t('settings.reactivate')}</Button>}
          {has('renew') && (
            <Button onClick={() => leave('renew')} loading={leaving === 'renew'} disabled={leaving !== null}>
              {t('settings.renew')}
            </Button>
          )}
          {has('portal') && (
            <Button
              variant="secondary"
              onClick={() => leave('portal')}
              loading={leaving === 'portal'}
              disabled={leaving !== null}
            >
              {t('settings.portal')}
            </Button>
          )}
          {has('cancel') && (
            <Button variant="secondary" onClick={() => setConfirming('cancel')}>
              {t('settings.cancel')}
            </Button>
          )}
          {has('remove') && (
            <Button variant="danger" onClick={() => setConfirming('remove')}>
              {t('settings.remove')}
            </Button>
          )}
        </div>
      </section>

      <ConfirmDialog
        open={Boolean(open)}
        title={open?.title ?? ''}
        description={open?.body}
        confirmLabel={open?.confirm ?? ''}
        cancelLabel={t('settings.confirm.back')}
        tone={open?.tone ?? 'primary'}
        busy={confirming ? mutations[confirming].isPending : false}
        onConfirm={() => confirming && run(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}
