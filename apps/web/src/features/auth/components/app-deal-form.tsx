import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LoginResult } from '@parley/contract';
import { Alert, Button, buttonClasses, TextField } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { rememberPendingCode } from '../../../lib/pending-code';
import { withReturnPath } from '../../../lib/safe-path';
import { useAppDeal } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { NewAccountFields } from './new-account-fields';
import { CheckInbox } from './check-inbox';
import { authLinkClass, BackLink } from './return-links';

const resolver = checksResolver<{ name: string; email: string; password: string; code: string }>({
  name: 'name',
  email: 'email',
  password: 'password',
  code: 'licenceCode',
});

export function AppDealForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const appDeal = useAppDeal();
  // Someone with an account redeems a code on the profile's form, after signing in.
  const redeemOnProfile = withReturnPath('/login', '/profile#redeem');
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { name: '', email: '', password: '', code: '' } });

  const onSubmit = handleSubmit((body) =>
    appDeal.mutate(body, {
      onSuccess: (result) => {
        if (result.token && result.user) onSignedIn({ token: result.token, user: result.user });
      },
    }),
  );

  if (appDeal.data?.verificationSent) return <CheckInbox email={appDeal.data.email} />;

  const emailTaken = appDeal.error instanceof ApiError && appDeal.error.code === 'EMAIL_TAKEN';

  return (
    <div>
      <BackLink />
      <AuthHeading title={t('appDeal.title')} subtitle={t('appDeal.subtitle')} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {appDeal.error && (
          <Alert tone="error">
            <p>{errorMessage(appDeal.error)}</p>
            {emailTaken && (
              <Link
                to={redeemOnProfile}
                onClick={() => rememberPendingCode(getValues('code').trim().toUpperCase())}
                className={buttonClasses('secondary', 'mt-3 w-full')}
              >
                {t('appDeal.emailTakenAction')}
              </Link>
            )}
          </Alert>
        )}
        <TextField
          label={t('fields.licenceCode')}
          autoComplete="off"
          spellCheck={false}
          error={errors.code && t('validation.licenceCode')}
          {...register('code')}
        />
        <NewAccountFields
          fields={{ name: register('name'), email: register('email'), password: register('password') }}
          errors={errors}
        />
        <Button type="submit" className="w-full" loading={appDeal.isPending}>
          {t('appDeal.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('appDeal.haveAccount')}{' '}
        <Link to={redeemOnProfile} className={authLinkClass}>
          {t('appDeal.loginLink')}
        </Link>
      </p>
    </div>
  );
}
