import type { PlanId } from '@parley/contract';
import type { Tx } from '../../db/client.js';
import type { UserRow } from '../accounts/index.js';

/**
 * What organizations needs of billing (the layer above, which owns wallets): app.ts passes it in. Every function
 * that changes something takes the transaction of the organization's change, so that who belongs and who pays never
 * disagree.
 */
export type OrganizationsBilling = {
  /** The plan and seats of the person's own wallet (opened now if they have none). */
  ownPlan(
    tx: Tx,
    owner: Pick<UserRow, 'id' | 'timezone' | 'earlyBird' | 'appDeal'>,
  ): Promise<{ plan: PlanId; seats: number }>;
  /**
   * The owner's wallet pays for the organization from now on, and the owner spends from it. False when that wallet
   * already pays for another organization.
   */
  linkOwnerWallet(
    tx: Tx,
    organizationId: string,
    owner: Pick<UserRow, 'id' | 'timezone' | 'earlyBird' | 'appDeal'>,
  ): Promise<boolean>;
  /** The plan and seats of the wallet that pays for each organization (by id; missing when none does). */
  plansOf(organizationIds: string[], tx?: Tx): Promise<Map<string, { plan: PlanId; seats: number }>>;
  /** The person spends from the organization's wallet (no limit until an admin sets one). */
  memberJoined(tx: Tx, organizationId: string, userId: string): Promise<void>;
  /** The person's own wallet pays again. */
  memberLeft(tx: Tx, organizationId: string, userId: string): Promise<void>;
  /** Sets a member's monthly limit; returns the one before (undefined when the person spends from no such wallet). */
  setMemberLimit(
    tx: Tx,
    organizationId: string,
    userId: string,
    limit: number | null,
  ): Promise<{ before: number | null } | undefined>;
  /** Each member's monthly limit and use this month (UTC), and the month as YYYY-MM. */
  memberUse(
    organizationId: string,
  ): Promise<{ month: string; members: Map<string, { limit: number | null; used: number }> }>;
  /** The organization is going: members spend from their own wallets again. */
  organizationClosed(tx: Tx, organizationId: string): Promise<void>;
};
