import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PlanChange, Profile } from '@parley/contract';
import { Alert, Button, Card, CardTitle, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { takePendingCode } from '../../../lib/pending-code';
import { useRedeemCode } from '../api/profile-api';
import { PlanChangeSummary } from './plan-change-summary';

const resolver = checksResolver<{ code: string }>({ code: 'licenceCode' });

/**
 * "Redeem a code": a licence code bought elsewhere, on the signed-in account (the app-deal page sends people with an
 * account here). After redeeming, it says what changed. Reached at /profile#redeem.
 */
export function RedeemCodeForm({ user }: { user: Profile }) {
  const { t } = useTranslation('profile');
  const redeem = useRedeemCode();
  const [change, setChange] = useState<PlanChange | null>(null);
  const { hash } = useLocation();
  const card = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    reset,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { code: '' } });

  // Arriving from the app-deal page: the code typed there, and the form in view.
  useEffect(() => {
    const pending = takePendingCode();
    if (pending) setValue('code', pending);
    if (hash === '#redeem' || pending) {
      card.current?.scrollIntoView?.({ block: 'center' });
      if (!user.appDeal) setFocus('code');
    }
  }, [hash, setValue, setFocus, user.appDeal]);

  const onSubmit = handleSubmit(({ code }) =>
    redeem.mutate(code, {
      onSuccess: (result) => {
        setChange(result.change);
        reset();
      },
    }),
  );

  return (
    <div id="redeem" ref={card} className="scroll-mt-24">
      <Card>
        <CardTitle>{t('redeem.title')}</CardTitle>
        <div className="mt-3 space-y-4">
          {change && <PlanChangeSummary change={change} />}
          {user.appDeal ? (
            !change && <Alert tone="success">{t('redeem.active')}</Alert>
          ) : (
            <>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('redeem.hint')}</p>
              <form onSubmit={onSubmit} noValidate className="space-y-4">
                {redeem.error && <Alert tone="error">{errorMessage(redeem.error)}</Alert>}
                <TextField
                  label={t('redeem.code')}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="characters"
                  placeholder="PARLEY-XXXX-XXXX-XXXX"
                  error={errors.code && t('redeem.codeInvalid')}
                  {...register('code')}
                />
                <Button type="submit" loading={redeem.isPending}>
                  {t('redeem.submit')}
                </Button>
              </form>
            </>
          )}
        </div>
      </Card>
    </div>
  );
}
