import type { AdminUser, AdminUserPlan } from '@parley/contract';
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
