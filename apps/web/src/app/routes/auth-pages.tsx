import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { LoginResult, PlanChange } from '@parley/contract';
import { Button } from '@parley/ui';
import {
  AppDealForm,
  EarlyBirdForm,
  ForgotPasswordForm,
  ResetPasswordForm,
  SignupForm,
  VerifyEmail,
} from '../../features/auth';
import { PlanChangeSummary } from '../../features/profile';
import { useSignedIn } from '../use-signed-in';

// Lazy-loaded: the login page does not need these forms.
export function SignupPage() {
  return <SignupForm onSignedIn={useSignedIn()} />;
}
/** An existing account signed in here is told what its upgrade changed before going on. */
export function EarlyBirdSignupPage() {
  const { t } = useTranslation('auth');
  const signedIn = useSignedIn();
  const [upgraded, setUpgraded] = useState<{ result: LoginResult; change: PlanChange } | null>(null);
  if (upgraded) {
    return (
      <PlanChangeSummary change={upgraded.change}>
        <Button className="w-full" autoFocus onClick={() => signedIn(upgraded.result)}>
          {t('changed.continue')}
        </Button>
      </PlanChangeSummary>
    );
  }
  return (
    <EarlyBirdForm onSignedIn={(result, change) => (change ? setUpgraded({ result, change }) : signedIn(result))} />
  );
}
export function AppDealSignupPage() {
  return <AppDealForm onSignedIn={useSignedIn()} />;
}
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  return <VerifyEmail token={params.get('token')} />;
}
export function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  return <ResetPasswordForm resetKey={params.get('key')} />;
}
