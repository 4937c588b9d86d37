import { AdminPortal, NotAllowed } from '../../features/admin';
import { useCurrentUser } from '../../lib/current-user';

/**
 * /admin-portal: site admins only. Anyone else sees that they are not allowed here (the server refuses them every
 * admin call regardless).
 */
export function AdminPortalPage() {
  const user = useCurrentUser();
  if (!user.data) return null;
  if (user.data.role !== 'admin') return <NotAllowed />;
  return <AdminPortal adminId={user.data.id} />;
}
