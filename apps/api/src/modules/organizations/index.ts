export type { OrganizationsBilling } from './billing-port.js';
export { MEMBERSHIP_OF, type Membership } from './organizations.queries.js';
export { registerOrganizationRoutes } from './organizations.routes.js';
export {
  createOrganizationsService,
  type AuditSink,
  type OrgCaller,
  type OrganizationsService,
} from './organizations.service.js';
