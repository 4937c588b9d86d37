export { organizationKeys } from './api/organization-api';
export { TeamIcon } from './components/icons';
export { JoinOrganization, JoinOrganizationSignedOut } from './components/join-organization';
export { ManageOrganization } from './components/manage-organization';
