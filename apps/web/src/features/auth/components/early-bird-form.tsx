import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LoginResult, PlanChange } from '@parley/contract';
import { Alert, Button } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { checksResolver } from '../../../lib/form-checks';
import { useEarlyBird } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { NewAccountFields } from './new-account-fields';
import { CheckInbox } from './check-inbox';
import { authLinkClass, BackLink, useWithNext } from './return-links';

// The API also signs existing accounts in here; the form asks for a new-account password, which fits both.
const resolver = checksResolver<{ name: string; email: string; password: string }>({
  name: 'name',
  email: 'email',
  password: 'password',
});

/**
 * Early-bird access. An existing account signs in with its e-mail and password and is upgraded; `change` then says
 * what the upgrade changed, for the page to show before going on.
 */
export function EarlyBirdForm({ onSignedIn }: { onSignedIn: (result: LoginResult, change?: PlanChange) => void }) {
  const { t } = useTranslation('auth');
  const earlyBird = useEarlyBird();
  const withNext = useWithNext();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { name: '', email: '', password: '' } });

  const onSubmit = handleSubmit((body) =>
    earlyBird.mutate(body, {
      onSuccess: (result) => {
        if (result.token && result.user) onSignedIn({ token: result.token, user: result.user }, result.change);
      },
    }),
  );

  if (earlyBird.data?.verificationSent) return <CheckInbox email={earlyBird.data.email} />;

  return (
    <div>
      <BackLink />
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
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('earlyBird.haveAccount')}{' '}
        <Link to={withNext('/login')} className={authLinkClass}>
          {t('earlyBird.loginLink')}
        </Link>
      </p>
    </div>
  );
}
