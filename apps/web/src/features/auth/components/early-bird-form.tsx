import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { emailSchema, nameSchema, passwordSchema, type LoginResult } from '@parley/contract';
import { Alert, Button } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useEarlyBird } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { NewAccountFields } from './new-account-fields';
import { CheckInbox } from './check-inbox';

// The API also signs existing accounts in here; the form asks for a new-account password, which fits both.
const schema = z.object({ name: nameSchema, email: emailSchema, password: passwordSchema });

export function EarlyBirdForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const earlyBird = useEarlyBird();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { name: '', email: '', password: '' } });

  const onSubmit = handleSubmit((body) =>
    earlyBird.mutate(body, {
      onSuccess: (result) => {
        if (result.token && result.user) onSignedIn({ token: result.token, user: result.user });
      },
    }),
  );

  if (earlyBird.data?.verificationSent) return <CheckInbox email={earlyBird.data.email} />;

  return (
    <div>
      <AuthHeading title={t('earlyBird.title')} subtitle={t('earlyBird.subtitle')} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {earlyBird.error && <Alert tone="error">{errorMessage(earlyBird.error)}</Alert>}
        <NewAccountFields
          fields={{ name: register('name'), email: register('email'), password: register('password') }}
          errors={errors}
        />
        <Button type="submit" className="w-full" loading={earlyBird.isPending}>
          {t('earlyBird.submit')}
        </Button>
      </form>
    </div>
  );
}
