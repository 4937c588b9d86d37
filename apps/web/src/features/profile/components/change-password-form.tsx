import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { changePasswordBodySchema } from '@parley/contract';
import { Alert, Button, Card, CardTitle, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useChangePassword } from '../api/profile-api';

const schema = changePasswordBodySchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'mismatch' });

export function ChangePasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation('profile');
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ oldPassword, newPassword }) =>
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: (result) => {
          reset();
          toast.success(result.message || t('password.changed'));
        },
      },
    ),
  );

  return (
    <Card>
      <CardTitle>{t('password.title')}</CardTitle>
      {!hasPassword && <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">{t('password.googleOnly')}</p>}
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        {change.error && <Alert tone="error">{errorMessage(change.error)}</Alert>}
        <TextField
          label={t('password.old')}
          type="password"
          autoComplete="current-password"
          error={errors.oldPassword && t('validation.oldPassword')}
          {...register('oldPassword')}
        />
        <TextField
          label={t('password.new')}
          type="password"
          autoComplete="new-password"
          hint={t('validation.passwordHint')}
          error={errors.newPassword && t('validation.passwordLength')}
          {...register('newPassword')}
        />
        <TextField
          label={t('password.confirm')}
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword && t('validation.passwordsMatch')}
          {...register('confirmPassword')}
        />
        <div className="flex justify-end">
          <Button type="submit" loading={change.isPending}>
            {t('password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
