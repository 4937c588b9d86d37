import type { AdminOrganizationMembers, AdminOrganizations } from '@parley/contract';
import type { Tx } from '../../db/client.js';
import type { Account } from '../accounts/index.js';

/** What the admin portal needs of organizations (layer 2): `organizations.forSiteAdmin`, passed in by app.ts. */
export type AdminOrganizationsPort = {
  /** Organizations, searched and paged, with their members, seats and plan. */
  list(input: { search: string; page: number; pageSize: number }): Promise<Omit<AdminOrganizations, 'available'>>;
  /** An organization with its members (their use this month) and pending invitations. */
  details(id: string): Promise<AdminOrganizationMembers>;
  /** Creates an organization for `owner` (recorded in the audit log as `actor`'s action). */
  create(actor: Account, owner: Account, name: string): Promise<AdminOrganizationMembers>;
  /** The owner (whose plan pays) of organization `organizationId`, when `userId` is a member (NOT_FOUND otherwise). */
  payerOf(organizationId: string, userId: string): Promise<string>;
  /**
   * In the transaction that deletes an account, before the row goes: what the organizations keep of them (their
   * memberships, an organization they own) is settled.
   */
  beforeUserDeleted(tx: Tx, userId: string): Promise<void>;
};
