import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { OrganizationsService } from './organizations.service.js';

/** Invitation mails an admin may have sent in an hour (each call may name up to ORG_INVITE_MAX addresses). */
const INVITE_CALLS_PER_HOUR = 30;
/** Join attempts per person per hour: enough for a mistyped link, not for guessing keys. */
const JOIN_ATTEMPTS_PER_HOUR = 20;

/**
 * §7 Organization: every call needs a session; what the caller may do in their organization is decided by the
 * service, under the organization's lock (their role is read again there).
 */
export function registerOrganizationRoutes(
  app: FastifyInstance,
  {
    organizations,
    requireAuth,
    limits,
  }: { organizations: OrganizationsService; requireAuth: onRequestAsyncHookHandler; limits: RateLimitStore },
) {
  const limit = async (request: FastifyRequest, what: string, max: number) => {
    const { count, resetInMs } = await limits.hit(`org:${what}:${callerOf(request).user.id}`, 3_600_000);
    if (count > max) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };

  defineRoute(app, 'orgTeam', requireAuth, async ({ request }) => ({
    data: await organizations.team(callerOf(request)),
  }));
  defineRoute(app, 'orgCreate', requireAuth, async ({ request, body }) => ({
    data: await organizations.create(callerOf(request), body),
    message: 'orgCreated',
  }));
  defineRoute(app, 'orgInvites', requireAuth, async ({ request }) => ({
    data: await organizations.invitations(callerOf(request)),
  }));
  defineRoute(app, 'orgInvite', requireAuth, async ({ request, body }) => {
    await limit(request, 'invite', INVITE_CALLS_PER_HOUR);
    return { data: await organizations.invite(callerOf(request), body), message: 'invited' };
  });
  defineRoute(app, 'orgResendInvite', requireAuth, async ({ request, query }) => {
    await limit(request, 'invite', INVITE_CALLS_PER_HOUR);
    return { data: await organizations.resendInvitation(callerOf(request), query.id), message: 'inviteResent' };
  });
  defineRoute(app, 'orgRevokeInvite', requireAuth, async ({ request, query }) => ({
    data: await organizations.revokeInvitation(callerOf(request), query.id),
    message: 'inviteRevoked',
  }));
  defineRoute(app, 'orgRemoveUser', requireAuth, async ({ request, query }) => ({
    data: await organizations.removeMember(callerOf(request), query.id),
    message: 'memberRemoved',
  }));
  defineRoute(app, 'orgMakeAdmin', requireAuth, async ({ request, query }) => ({
    data: await organizations.setRole(callerOf(request), query.id, 'admin'),
    message: 'roleChanged',
  }));
  defineRoute(app, 'orgMakeUser', requireAuth, async ({ request, query }) => ({
    data: await organizations.setRole(callerOf(request), query.id, 'user'),
    message: 'roleChanged',
  }));
  defineRoute(app, 'orgMemberLimit', requireAuth, async ({ request, body }) => ({
    data: await organizations.setLimit(callerOf(request), body),
    message: 'limitSaved',
  }));
  defineRoute(app, 'orgLeave', requireAuth, async ({ request, query }) => ({
    data: await organizations.leave(callerOf(request), query.id),
    message: 'leftOrganization',
  }));
  defineRoute(app, 'join', requireAuth, async ({ request, body }) => {
    await limit(request, 'join', JOIN_ATTEMPTS_PER_HOUR);
    return { data: await organizations.join(callerOf(request), body.key), message: 'joined' };
  });
}
