import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { appDealBodySchema, type LoginResult } from '@parley/contract';
import { Alert, Button, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAppDeal } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { NewAccountFields } from './new-account-fields';
import { CheckInbox } from './check-inbox';

const schema = appDealBodySchema.pick({ name: true, email: true, password: true, code: true });

export function AppDealForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const appDeal = useAppDeal();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { name: '', email: '', password: '', code: '' } });

  const onSubmit = handleSubmit((body) =>
    appDeal.mutate(body, {
      onSuccess: (result) => {
        if (result.token && result.user) onSignedIn({ token: result.token, user: result.user });
      },
    }),
  );

  if (appDeal.data?.verificationSent) return <CheckInbox email={appDeal.data.email} />;

  return (
    <div>
      <AuthHeading title={t('appDeal.title')} subtitle={t('appDeal.subtitle')} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {appDeal.error && <Alert tone="error">{errorMessage(appDeal.error)}</Alert>}
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
    </div>
  );
}
