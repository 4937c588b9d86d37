import { Dashboard, type DashboardLinks } from '../../features/home';
import { useCurrentUser } from '../../lib/current-user';

/** Plans are listed on the dashboard itself until they have a page of their own. */
const LINKS: DashboardLinks = {
  chat: '/chat',
  conversation: (id) => `/chat/${id}`,
  install: '/install',
  plans: '#plans',
};

export function HomePage() {
  const user = useCurrentUser();
  // RequireAuth renders nothing below it until the user is loaded.
  return user.data ? <Dashboard user={user.data} links={LINKS} /> : null;
}
