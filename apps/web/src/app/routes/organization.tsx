import { useSearchParams } from 'react-router';
import { JoinOrganization, ManageOrganization } from '../../features/organization';
import { useCurrentUser } from '../../lib/current-user';

/** Where the organization pages lead. */
const PATHS = { plans: '/subscription', organization: '/organization', home: '/home' } as const;

/** /organization: Manage Organization (or how to get one). */
export function OrganizationPage() {
  const user = useCurrentUser();
  if (!user.data) return null;
  return <ManageOrganization selfId={user.data.id} plansPath={PATHS.plans} />;
}

/** /join-organization?key=…: accept an invitation (RequireAuth has brought a signed-out visitor back here). */
export function JoinOrganizationPage() {
  const [params] = useSearchParams();
  const user = useCurrentUser();
  return (
    <JoinOrganization
      invitationKey={params.get('key')}
      email={user.data?.email}
      organizationPath={PATHS.organization}
      homePath={PATHS.home}
    />
  );
}
