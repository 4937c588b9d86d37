import { Link, useSearchParams } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { NEXT_PARAM, returnPath } from '../../lib/safe-path';
import { useSignedIn } from '../use-signed-in';

/** /login inside the app (after signing out, or sent here by a protected page); a fresh visit gets sign-in-app.tsx. */
export function LoginPage() {
  const [params] = useSearchParams();
  return <LoginForm onSignedIn={useSignedIn()} Link={Link} next={returnPath(params.get(NEXT_PARAM))} />;
}
