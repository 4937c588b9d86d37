import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LoginResult } from '@parley/contract';
import { Alert, Button } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { useRegister } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { NewAccountFields } from './new-account-fields';
import { CheckInbox } from './check-inbox';
import { OtherSignIn } from './other-sign-in';
import { authLinkClass, useWithNext } from './return-links';

const resolver = checksResolver<{ name: string; email: string; password: string }>({
  name: 'name',
  email: 'email',
  password: 'password',
});

export function SignupForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const registration = useRegister();
  const withNext = useWithNext();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { name: '', email: '', password: '' } });

  if (registration.data) return <CheckInbox email={registration.data.email} />;

  return (
    <div>
      <AuthHeading title={t('signup.title')} subtitle={t('signup.subtitle')} />
      <form onSubmit={handleSubmit((body) => registration.mutate(body))} noValidate className="space-y-4">
        {registration.error && <Alert tone="error">{errorMessage(registration.error)}</Alert>}
        <NewAccountFields
          fields={{ name: register('name'), email: register('email'), password: register('password') }}
          errors={errors}
        />
        <Button type="submit" className="w-full" loading={registration.isPending}>
          {t('signup.submit')}
        </Button>
      </form>
      <OtherSignIn onSignedIn={onSignedIn} />
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('signup.haveAccount')}{' '}
        <Link to={withNext('/login')} className={authLinkClass}>
          {t('signup.loginLink')}
        </Link>
      </p>
    </div>
  );
}
