import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button, buttonClasses, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { useResetPassword } from '../api/auth-api';
import { AuthHeading } from './auth-heading';

const resolver = checksResolver<{ password: string; confirm: string }>({ password: 'password' }, (v) =>
  v.password === v.confirm ? [] : ['confirm'],
);

export function ResetPasswordForm({ resetKey }: { resetKey: string | null }) {
  const { t } = useTranslation('auth');
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { password: '', confirm: '' } });

  if (!resetKey) {
    return (
      <div>
        <AuthHeading title={t('reset.title')} />
        <Alert tone="error">{t('reset.missingKey')}</Alert>
        <Link to="/forgot-password" className={buttonClasses('secondary', 'mt-4 w-full')}>
          {t('reset.requestNew')}
        </Link>
      </div>
    );
  }

  if (reset.isSuccess) {
    return (
      <div>
        <AuthHeading title={t('reset.title')} />
        <Alert tone="success">{reset.data.message || t('reset.done')}</Alert>
        <Link to="/login" className={buttonClasses('primary', 'mt-4 w-full')}>
          {t('backToLogin')}
        </Link>
      </div>
    );
  }

  return (
    <div>
      <AuthHeading title={t('reset.title')} subtitle={t('reset.subtitle')} />
      <form
        onSubmit={handleSubmit(({ password }) => reset.mutate({ key: resetKey, password }))}
        noValidate
        className="space-y-4"
      >
        {reset.error && <Alert tone="error">{errorMessage(reset.error)}</Alert>}
        <TextField
          label={t('fields.newPassword')}
          type="password"
          autoComplete="new-password"
          hint={t('validation.passwordHint')}
          error={errors.password && t('validation.passwordLength')}
          {...register('password')}
        />
        <TextField
          label={t('fields.confirmPassword')}
          type="password"
          autoComplete="new-password"
          error={errors.confirm && t('validation.passwordsMatch')}
          {...register('confirm')}
        />
        <Button type="submit" className="w-full" loading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </form>
    </div>
  );
}
