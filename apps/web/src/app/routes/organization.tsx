import { useSearchParams } from 'react-router';
import { JoinOrganization, JoinOrganizationSignedOut, ManageOrganization } from '../../features/organization';
import { useCurrentUser } from '../../lib/current-user';

/** Where the organization pages lead. */
const PATHS = {
  plans: '/subscription',
  organization: '/organization',
  home: '/home',
  login: '/login',
  signup: '/signup',
} as const;

/** /organization: Manage Organization (or how to get one). */
export function OrganizationPage() {
  const user = useCurrentUser();
  if (!user.data) return null;
  return <ManageOrganization selfId={user.data.id} plansPath={PATHS.plans} />;
}

/** /join-organization?key=… signed in: accept the invitation. */
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

/** /join-organization?key=… signed out: log in or create an account; the invitation waits in this browser. */
export function JoinOrganizationSignedOutPage() {
  const [params] = useSearchParams();
  return (
    <JoinOrganizationSignedOut invitationKey={params.get('key')} loginPath={PATHS.login} signupPath={PATHS.signup} />
  );
}
