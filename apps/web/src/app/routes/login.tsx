import { LoginForm } from '../../features/auth/components/login-form';
import { useSignedIn } from '../use-signed-in';

export function LoginPage() {
  return <LoginForm onSignedIn={useSignedIn()} />;
}
