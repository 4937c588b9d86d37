import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import type { CurrentPlan, PaymentPlans, PlanOffer, Promo } from '@parley/contract';
import type { PaidPlanId, PlanDuration } from '@parley/contract/values';
import { formatPrice } from '@parley/i18n';
import { Alert, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useStudentConfirm, useUpdateSubscription, type PlanChoice } from '../api/plans-api';
import { bestYearlySaving, checkoutSearch, chooserMode, isCurrentChoice, isLive, isUpgrade, priceOf } from '../pricing';
import { BillingSwitch } from './billing-switch';
import { PlanCard, type CardAction } from './plan-card';
import { PromoCodeField } from './promo-code-field';
import { StudentPricing } from './student-pricing';

export type PlanChooserPaths = {
  /** The page that hands over to the hosted checkout (/payment-call). */
  checkout: string;
  /** The plan settings (/setting/plan). */
  settings: string;
};

/**
 * The plan chooser (/subscription): Monthly or Yearly with the best saving, one card per plan on sale, seats for
 * Team, a promotion code, student pricing and the free trial. Without a subscription a card starts a checkout; with
 * one it changes the subscription (after saying that prorations apply).
 */
export function PlanChooser({
  plans,
  current,
  paths,
}: {
  plans: PaymentPlans;
  current: CurrentPlan;
  paths: PlanChooserPaths;
}) {
  const { t, i18n } = useTranslation('plans');
  const navigate = useNavigate();
  const sub = current.subscription;
  const mode = chooserMode(current);
  const [duration, setDuration] = useState<PlanDuration>(isLive(sub) ? sub.duration : 'month');
  const [seats, setSeats] = useState(isLive(sub) && sub.plan === 'team' ? sub.quantity : 1);
  const [promo, setPromo] = useState<Promo | null>(null);
  // Student prices are on by default once an address is verified (also when it is verified while here).
  const [student, setStudent] = useState<boolean | null>(null);
  const [confirming, setConfirming] = useState<PlanChoice | null>(null);
  const update = useUpdateSubscription();
  const onPromo = useCallback((p: Promo | null) => setPromo(p), []);

  const paymentsOff = !plans.paymentsEnabled || !current.paymentsEnabled;
  const studentOn = student ?? Boolean(current.studentEmail);
  // A running subscription keeps the prices it was bought at (student or not); a new checkout follows the switch.
  const studentPrices =
    mode === 'choose' ? plans.studentPricing && Boolean(current.studentEmail) && studentOn : Boolean(sub?.student);
  const showStudent = plans.studentPricing && (mode === 'choose' || !current.studentEmail);
  const saving = bestYearlySaving(plans.plans);
  const offers = plans.plans;

  const choiceOf = (offer: PlanOffer): PlanChoice => ({
    plan: offer.id,
    planDuration: duration,
    quantity: offer.perSeat ? seats : 1,
  });
  const actionOf = (offer: PlanOffer): CardAction => {
    const choice = choiceOf(offer);
    if (isCurrentChoice(current, { plan: choice.plan, duration, quantity: choice.quantity })) return 'current';
    if (mode !== 'change') return 'choose';
    return isUpgrade(current, offers, { plan: choice.plan, duration, quantity: choice.quantity })
      ? 'upgrade'
      : 'change';
  };

  const choose = (offer: PlanOffer) => {
    const choice = choiceOf(offer);
    if (mode === 'change') {
      setConfirming(choice);
      return;
    }
    navigate(
      paths.checkout +
        checkoutSearch({
          plan: choice.plan,
          duration,
          quantity: choice.quantity,
          promoCode: promo?.code,
          student: studentPrices,
        }),
    );
  };
  const startTrial = (plan: PaidPlanId) => navigate(paths.checkout + checkoutSearch({ plan, duration, trial: true }));

  const confirmChange = () => {
    if (!confirming) return;
    update.mutate(confirming, {
      onSuccess: () => {
        toast.success(t('change.done', { plan: t(`names.${confirming.plan}`) }));
        setConfirming(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setConfirming(null);
      },
    });
  };

  const confirmingOffer = confirming && offers.find((o) => o.id === confirming.plan);
  const confirmingPrice = confirmingOffer && priceOf(confirmingOffer, confirming.planDuration, Boolean(sub?.student));

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
            {t('chooser.title')}
          </h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('chooser.subtitle')}</p>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {t('chooser.youAreOn', { plan: t(`names.${current.plan}`) })}{' '}
            <Link
              to={paths.settings}
              className={cn('font-medium text-blue-600 underline dark:text-blue-400', focusRing)}
            >
              {t('chooser.manage')}
            </Link>
          </p>
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:items-end">
          <BillingSwitch value={duration} onChange={setDuration} saving={saving} />
          {/* Above the plans, so a code is entered before one is chosen (also on a phone). */}
          {!paymentsOff && mode === 'choose' && (
            <div className="w-full sm:w-80">
              <PromoCodeField duration={duration} applied={promo} onChange={onPromo} />
            </div>
          )}
        </div>
      </div>

      <StudentConfirmFromLink />

      {paymentsOff && (
        <Alert tone="info">
          <p className="font-medium">{t('disabled.title')}</p>
          <p>{t('disabled.body')}</p>
        </Alert>
      )}
      {!paymentsOff && mode === 'locked' && (
        <Alert tone="info">
          {t('chooser.locked')}{' '}
          <Link to={paths.settings} className={cn('font-medium underline', focusRing)}>
            {t('chooser.manage')}
          </Link>
        </Alert>
      )}
      {!paymentsOff && mode === 'change' && (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('chooser.changeHint')}</p>
      )}

      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label={t('chooser.listLabel')}>
        {offers.map((offer) => {
          const action = actionOf(offer);
          return (
            <li key={offer.id}>
              <PlanCard
                offer={offer}
                duration={duration}
                student={studentPrices}
                seats={seats}
                onSeatsChange={setSeats}
                action={action}
                disabled={paymentsOff || mode === 'locked'}
                busy={update.isPending && confirming?.plan === offer.id}
                promo={mode === 'choose' ? promo : null}
                trialDays={mode === 'choose' && current.trialAvailable ? plans.trialDays : null}
                onAction={() => choose(offer)}
                onTrial={() => startTrial(offer.id)}
              />
            </li>
          );
        })}
      </ul>

      {!paymentsOff && showStudent && (
        <div className="max-w-2xl">
          <StudentPricing studentEmail={current.studentEmail} on={studentOn} onChange={setStudent} />
        </div>
      )}

      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('chooser.footnote')}</p>

      <ConfirmDialog
        open={Boolean(confirming)}
        tone="primary"
        title={
          confirming
            ? t('change.title', {
                plan: t(`names.${confirming.plan}`),
                period: t(`billing.${confirming.planDuration}`),
              })
            : ''
        }
        description={
          confirming
            ? [
                confirmingPrice
                  ? t(confirmingOffer?.perSeat ? 'change.newPriceSeats' : 'change.newPrice', {
                      price: formatPrice(
                        confirmingPrice.amount * confirming.quantity,
                        confirmingPrice.currency,
                        i18n.language,
                      ),
                      period: t(`price.per.${confirming.planDuration}`),
                      seats: confirming.quantity,
                    })
                  : '',
                t('change.proration'),
              ]
                .filter(Boolean)
                .join(' ')
            : undefined
        }
        confirmLabel={t('change.confirm')}
        cancelLabel={t('change.cancel')}
        busy={update.isPending}
        onConfirm={confirmChange}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}

/** The mailed link opens /subscription?studentToken=…: confirm the address once, then drop the token from the address. */
function StudentConfirmFromLink() {
  const { t } = useTranslation('plans');
  const [params, setParams] = useSearchParams();
  const token = params.get('studentToken');
  const confirm = useStudentConfirm();
  const sent = useRef<string | null>(null);
  const { mutate } = confirm;

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate(token, {
      onSuccess: () => {
        toast.success(t('student.confirmed'));
        setParams(
          (p) => {
            p.delete('studentToken');
            return p;
          },
          { replace: true },
        );
      },
    });
  }, [token, mutate, setParams, t]);

  if (confirm.isPending) return <Alert tone="info">{t('student.confirming')}</Alert>;
  if (confirm.isError) return <Alert tone="error">{errorMessage(confirm.error)}</Alert>;
  return null;
}
