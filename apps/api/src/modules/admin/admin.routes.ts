import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { AdminService } from './admin.service.js';

/**
 * Every `/api/admin/*` call: the session is checked (401 / 409), then the role (403 for anyone who is not a site
 * admin), both as soon as the headers are in — before a byte of the body is read or anything is looked up.
 */
export function createRequireSiteAdmin(requireAuth: onRequestAsyncHookHandler): onRequestAsyncHookHandler {
  return async function requireSiteAdmin(request, reply) {
    await requireAuth.call(this, request, reply);
    if (callerOf(request).role !== 'admin') throw new DomainError('FORBIDDEN');
  };
}

export function registerAdminRoutes(
  app: FastifyInstance,
  { admin, requireAuth }: { admin: AdminService; requireAuth: onRequestAsyncHookHandler },
) {
  const requireSiteAdmin = createRequireSiteAdmin(requireAuth);

  defineRoute(app, 'adminUsers', requireSiteAdmin, async ({ body }) => ({ data: await admin.users(body) }));
  defineRoute(app, 'adminEditUser', requireSiteAdmin, async ({ request, body }) => ({
    data: await admin.editUser(callerOf(request), body),
    message: 'userUpdated',
  }));
  defineRoute(app, 'adminForceLogout', requireSiteAdmin, async ({ request, query }) => ({
    data: await admin.forceLogout(callerOf(request), query.id),
    message: 'userLoggedOut',
  }));
  defineRoute(app, 'adminDeleteUser', requireSiteAdmin, async ({ request, query }) => ({
    data: await admin.deleteUser(callerOf(request), query.id),
    message: 'userDeleted',
  }));
  defineRoute(app, 'adminRemoveUserPlan', requireSiteAdmin, async ({ request, query }) => ({
    data: await admin.removeUserPlan(callerOf(request), query.id),
    message: 'planRemoved',
  }));
  defineRoute(app, 'adminUserPlan', requireSiteAdmin, async ({ body }) => ({ data: await admin.userPlan(body) }));
  defineRoute(app, 'adminOrganizations', requireSiteAdmin, async ({ body }) => ({
    data: await admin.organizations(body),
  }));
  defineRoute(app, 'adminOrganizationMembers', requireSiteAdmin, async ({ body }) => ({
    data: await admin.organizationMembers(body.id),
  }));
  defineRoute(app, 'adminCreateOrganization', requireSiteAdmin, async ({ request, body }) => ({
    data: await admin.createOrganization(callerOf(request), body),
    message: 'orgCreated',
  }));
  defineRoute(app, 'adminErrorLogs', requireSiteAdmin, async ({ body }) => ({
    data: await admin.errorLogs({
      ...body,
      from: body.from ? new Date(body.from) : undefined,
      to: body.to ? new Date(body.to) : undefined,
    }),
  }));
  defineRoute(app, 'adminDeleteErrorLog', requireSiteAdmin, async ({ request, query }) => ({
    data: await admin.deleteErrorLogs(
      callerOf(request),
      query.id ? { id: query.id } : { before: new Date(query.before!) },
    ),
    message: 'errorLogsDeleted',
  }));
  defineRoute(app, 'adminAutomations', requireSiteAdmin, async ({ body }) => ({
    data: await admin.automationsOf(body.id),
  }));
  defineRoute(app, 'adminDeleteAutomation', requireSiteAdmin, async ({ request, query }) => ({
    data: await admin.deleteAutomation(callerOf(request), query.automationId),
    message: 'automationDeleted',
  }));
  defineRoute(app, 'adminAudit', requireSiteAdmin, async ({ body }) => ({ data: await admin.audit(body) }));
}
