import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { loginBodySchema, type LoginResult } from '@parley/contract';
import { Alert, Button, TextField } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { useLogin, useResendVerification } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { OtherSignIn } from './other-sign-in';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

export function LoginForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const login = useLogin();
  const resend = useResendVerification();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm({ resolver: zodResolver(loginBodySchema), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((body) => login.mutate(body, { onSuccess: onSignedIn }));
  const notVerified = login.error instanceof ApiError && login.error.code === 'EMAIL_NOT_VERIFIED';

  return (
    <div>
      <AuthHeading title={t('login.title')} subtitle={t('login.subtitle')} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {login.error && (
          <Alert tone="error">
            <p>{errorMessage(login.error)}</p>
            {notVerified && (
              <button
                type="button"
                className="mt-1 font-medium underline"
                onClick={() =>
                  resend.mutate(getValues('email'), {
                    onSuccess: () => toast.success(t('checkInbox.resent')),
                    onError: (e) => toast.error(errorMessage(e)),
                  })
                }
              >
                {t('checkInbox.resend')}
              </button>
            )}
          </Alert>
        )}
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          error={errors.email && t('validation.email')}
          {...register('email')}
        />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          error={errors.password && t('validation.passwordRequired')}
          {...register('password')}
        />
        <div className="flex justify-end text-sm">
          <Link to="/forgot-password" className={linkClass}>
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </form>
      <OtherSignIn onSignedIn={onSignedIn} />
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('login.noAccount')}{' '}
        <Link to="/signup" className={linkClass}>
          {t('login.signupLink')}
        </Link>
      </p>
    </div>
  );
}
