export { registerAdminRoutes, createRequireSiteAdmin } from './admin.routes.js';
export { createAdminService, type AdminService } from './admin.service.js';
export { createRecordAudit, type AuditRecord, type RecordAudit } from './audit.js';
export type { AdminOrganizationsPort } from './organizations-port.js';
