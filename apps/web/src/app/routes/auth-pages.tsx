import { useSearchParams } from 'react-router';
import {
  AppDealForm,
  EarlyBirdForm,
  ForgotPasswordForm,
  ResetPasswordForm,
  SignupForm,
  VerifyEmail,
} from '../../features/auth';
import { useSignedIn } from '../use-signed-in';

// Lazy-loaded: the login page does not need these forms.
export function SignupPage() {
  return <SignupForm onSignedIn={useSignedIn()} />;
}
export function EarlyBirdSignupPage() {
  return <EarlyBirdForm onSignedIn={useSignedIn()} />;
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
