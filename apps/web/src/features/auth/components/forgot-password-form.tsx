import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { forgotPasswordBodySchema } from '@parley/contract';
import { Alert, Button, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useForgotPassword } from '../api/auth-api';
import { AuthHeading } from './auth-heading';

export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgotPasswordBodySchema), defaultValues: { email: '' } });

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
        <Link to="/login" className="font-medium text-blue-600 hover:underline dark:text-blue-400">
          {t('backToLogin')}
        </Link>
      </p>
    </div>
  );
}
