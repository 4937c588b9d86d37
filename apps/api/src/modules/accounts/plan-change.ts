import type { Credits, PlanChange } from '@parley/contract';
import type { Account } from './accounts.queries.js';
import type { AccountPlan } from './billing-port.js';

/** The plan an account's channels give it (the same rule billing opens a wallet with). */
export const planOf = (user: Pick<Account, 'earlyBird' | 'appDeal'>): AccountPlan =>
  user.appDeal ? 'appDeal' : user.earlyBird ? 'earlyBird' : 'free';

/** What an upgrade changed, for the person to read: plan and credits, before and after. */
export function planChange(
  before: { user: Pick<Account, 'earlyBird' | 'appDeal'>; credits: Credits },
  after: { user: Pick<Account, 'earlyBird' | 'appDeal'>; credits: Credits },
): PlanChange {
  return {
    planBefore: planOf(before.user),
    planAfter: planOf(after.user),
    creditsBefore: before.credits,
    creditsAfter: after.credits,
  };
}
