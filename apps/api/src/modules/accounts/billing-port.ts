import type { Tx } from '../../db/client.js';
import type { Account, UserRow } from './accounts.queries.js';
import type { ProfileCredits } from './profile.js';

/** The plan an account's channel gives it: sign-up, early bird, app deal. */
export type AccountPlan = 'free' | 'earlyBird' | 'appDeal';

/**
 * What accounts needs from the layer that owns credits (billing, above it): app.ts passes it in. Wallets are opened
 * and plans changed inside the transaction that creates or upgrades the account, so neither exists without the other.
 */
export type AccountsBilling = {
  openWallet(tx: Tx, user: Pick<UserRow, 'id' | 'timezone'>, plan: AccountPlan): Promise<void>;
  changePlan(
    tx: Tx,
    user: Pick<UserRow, 'id' | 'timezone' | 'earlyBird' | 'appDeal'>,
    plan: AccountPlan,
  ): Promise<void>;
  /** The account's time zone changed: daily credits now renew at midnight there. */
  timezoneChanged(user: Pick<UserRow, 'id' | 'timezone'>): Promise<void>;
  /** The credits and use a profile shows; `who` may carry the wallet already resolved for the request. */
  profileCredits(who: { user: Account }): Promise<ProfileCredits>;
};
