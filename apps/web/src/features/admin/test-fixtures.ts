import type { AdminOrganization, AdminOrganizationMembers, AdminUser, AdminUserPlan } from '@parley/contract';
import { makeProfile } from '../../test/render-app';

export function makeAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    ...makeProfile({
      id: 'u-ada',
      profileId: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      fullName: 'Ada Lovelace',
      credits: { dailyCredit: 3, basicCredit: 1250, advanceCredit: 5, extraAdvanceCredit: 0 },
      basicUse: 1234,
      advanceUse: 2,
      extraAdvanceUse: 1,
      monthlyUse: 1237,
    }),
    plan: 'free',
    lastLoginAt: '2026-11-20T09:30:00.000Z',
    activeSessions: 2,
    ...overrides,
  };
}

export const freePlan = (userId = 'u-ada'): AdminUserPlan => ({
  userId,
  organizationId: null,
  plan: { plan: 'free', basePlan: 'free', subscription: null },
});

export const adminProfile = () =>
  makeProfile({ id: 'u-admin', profileId: 'u-admin', email: 'root@example.com', name: 'Root', role: 'admin' });

export const ORG_ID = '0b7a3c8e-5f1d-4c2a-9e6b-1d2f3a4b5c6d';

export function makeAdminOrganization(overrides: Partial<AdminOrganization> = {}): AdminOrganization {
  return {
    id: ORG_ID,
    name: 'Analytical Engines',
    members: 2,
    seats: 5,
    plan: 'team',
    createdAt: '2026-11-02T10:00:00.000Z',
    ...overrides,
  };
}

/** An organization owned by Ada, with Charles as a user on a monthly limit, and two invitations (one expired). */
export function makeOrganizationMembers(
  overrides: Partial<AdminOrganizationMembers['organization']> = {},
): AdminOrganizationMembers {
  return {
    organization: {
      id: ORG_ID,
      name: 'Analytical Engines',
      seats: 5,
      members: 2,
      pendingInvitations: 1,
      plan: 'team',
      ownerId: 'u-ada',
      createdAt: '2026-11-02T10:00:00.000Z',
      ...overrides,
    },
    members: [
      {
        id: 'u-ada',
        name: 'Ada',
        email: 'ada@example.com',
        role: 'admin',
        joinedAt: '2026-11-02T10:00:00.000Z',
        isOwner: true,
        limit: null,
        used: 1234,
      },
      {
        id: 'u-charles',
        name: 'Charles',
        email: 'charles@example.com',
        role: 'user',
        joinedAt: '2026-11-05T08:00:00.000Z',
        isOwner: false,
        limit: 500,
        used: 42,
      },
    ],
    invitations: [
      {
        id: 'i-1',
        email: 'mary@example.com',
        sentAt: '2026-11-18T09:00:00.000Z',
        expiresAt: '2026-11-25T09:00:00.000Z',
        expired: false,
        invitedBy: 'Ada',
      },
      {
        id: 'i-2',
        email: 'old@example.com',
        sentAt: '2026-10-01T09:00:00.000Z',
        expiresAt: '2026-10-08T09:00:00.000Z',
        expired: true,
        invitedBy: null,
      },
    ],
  };
}
