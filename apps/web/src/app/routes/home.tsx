import { Dashboard, type DashboardLinks } from '../../features/home';
import { useCurrentUser } from '../../lib/current-user';

/** "See plans" opens the plan chooser; the dashboard keeps a summary of the plans that come without payment. */
const LINKS: DashboardLinks = {
  chat: '/chat',
  conversation: (id) => `/chat/${id}`,
  install: '/install',
  plans: '/subscription',
};

export function HomePage() {
  const user = useCurrentUser();
  // RequireAuth renders nothing below it until the user is loaded.
  return user.data ? <Dashboard user={user.data} links={LINKS} /> : null;
}
