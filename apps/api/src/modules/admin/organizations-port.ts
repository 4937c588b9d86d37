import type { AdminOrganizations, AdminUserPlan } from '@parley/contract';
import type { Tx } from '../../db/client.js';

/**
 * What the admin portal needs of organizations (layer 2), passed in by app.ts once that module exists; until then
 * `null`, and the portal answers that there are no organizations to list. Kept apart here so that wiring it later
 * touches this port and app.ts only.
 */
export type AdminOrganizationsPort = {
  /** Organizations, searched and paged, with their members, seats and plan. */
  list(input: { search: string; page: number; pageSize: number }): Promise<Omit<AdminOrganizations, 'available'>>;
  /**
   * The plan that pays for `userId` in organization `organizationId` (NOT_FOUND when they are not a member), as
   * `AdminUserPlan['plan']`.
   */
  planOf(organizationId: string, userId: string): Promise<AdminUserPlan['plan']>;
  /**
   * In the transaction that deletes an account, before the row goes: what the organizations keep of them (their
   * memberships, an organization they alone administer) is settled.
   */
  beforeUserDeleted(tx: Tx, userId: string): Promise<void>;
};
