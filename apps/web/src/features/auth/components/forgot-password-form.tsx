import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { useForgotPassword } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { authLinkClass, useWithNext } from './return-links';

const resolver = checksResolver<{ email: string }>({ email: 'email' });

export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const forgot = useForgotPassword();
  const withNext = useWithNext();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { email: '' } });

  return (
    <div>
      <AuthHeading title={t('forgot.title')} subtitle={t('forgot.subtitle')} />
      {forgot.isSuccess ? (
        <Alert tone="success">{forgot.data.message || t('forgot.sent')}</Alert>
      ) : (
        <form onSubmit={handleSubmit((body) => forgot.mutate(body))} noValidate className="space-y-4">
          {forgot.error && <Alert tone="error">{errorMessage(forgot.error)}</Alert>}
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            error={errors.email && t('validation.email')}
            {...register('email')}
          />
          <Button type="submit" className="w-full" loading={forgot.isPending}>
            {t('forgot.submit')}
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to={withNext('/login')} className={authLinkClass}>
          {t('backToLogin')}
        </Link>
      </p>
    </div>
  );
}
