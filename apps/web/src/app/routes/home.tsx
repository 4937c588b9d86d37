import { Dashboard } from '../../features/home';
import { useCurrentUser } from '../../lib/current-user';

export function HomePage() {
  const user = useCurrentUser();
  // RequireAuth renders nothing below it until the user is loaded.
  return user.data ? <Dashboard user={user.data} /> : null;
}
