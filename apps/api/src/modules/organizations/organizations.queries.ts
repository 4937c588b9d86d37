import type { OrgRole } from '@parley/contract';
import { and, asc, count, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { organizationInvitations, organizationMembers, organizations } from '../../db/schema/index.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type MemberRow = typeof organizationMembers.$inferSelect;
export type InvitationRow = typeof organizationInvitations.$inferSelect;

/** The organization a person belongs to and their role there (for the caller): JSON, or null. */
export type Membership = { id: string; role: OrgRole };

/** `(SELECT json_build_object('id', …, 'role', …) …)` for the person whose `users` row is `alias`. */
export const MEMBERSHIP_OF = (alias: string) =>
  `(SELECT json_build_object('id', om.organization_id, 'role', om.role) FROM organization_members om
     WHERE om.user_id = ${alias}.id)`;

export async function insertOrganization(tx: Tx, values: { name: string; ownerId: string }) {
  const [row] = await tx.insert(organizations).values(values).returning();
  return row!;
}

export async function deleteOrganization(tx: Tx, id: string) {
  await tx.delete(organizations).where(eq(organizations.id, id));
}

/**
 * The organization's row, locked until the transaction ends: every change of its members, roles and invitations
 * takes it first, so that seat counts and "the last admin" are decided one change at a time.
 */
export async function lockOrganization(tx: Tx, id: string) {
  const [row] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
  return row;
}

export async function findOrganization(db: Db | Tx, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function findMembership(db: Db | Tx, userId: string) {
  const [row] = await db.select().from(organizationMembers).where(eq(organizationMembers.userId, userId));
  return row;
}

export async function membersOf(db: Db | Tx, organizationId: string) {
  return db
    .select()
    .from(organizationMembers)
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(asc(organizationMembers.joinedAt), asc(organizationMembers.userId));
}

export async function insertMember(tx: Tx, values: { organizationId: string; userId: string; role: OrgRole }) {
  await tx.insert(organizationMembers).values(values);
}

export async function deleteMember(tx: Tx, organizationId: string, userId: string) {
  await tx
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
}

export async function setRole(tx: Tx, organizationId: string, userId: string, role: OrgRole) {
  await tx
    .update(organizationMembers)
    .set({ role })
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
}

/** Invitations not used and not revoked (expired ones too: they are shown, and hold no seat). */
export async function pendingInvitations(db: Db | Tx, organizationId: string) {
  return db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        isNull(organizationInvitations.usedAt),
        isNull(organizationInvitations.revokedAt),
      ),
    )
    .orderBy(desc(organizationInvitations.sentAt));
}

/**
 * A new invitation for `email`, replacing a pending one for the same address (its key stops working): one row per
 * organization and address while pending.
 */
export async function upsertInvitation(
  tx: Tx,
  values: {
    organizationId: string;
    email: string;
    tokenHash: string;
    invitedBy: string;
    sentAt: Date;
    expiresAt: Date;
  },
) {
  const [row] = await tx
    .insert(organizationInvitations)
    .values(values)
    .onConflictDoUpdate({
      target: [organizationInvitations.organizationId, organizationInvitations.email],
      targetWhere: sql`${organizationInvitations.usedAt} IS NULL AND ${organizationInvitations.revokedAt} IS NULL`,
      set: {
        tokenHash: values.tokenHash,
        invitedBy: values.invitedBy,
        sentAt: values.sentAt,
        expiresAt: values.expiresAt,
      },
    })
    .returning();
  return row!;
}

/** A pending invitation of the organization, locked. */
export async function lockPendingInvitation(tx: Tx, organizationId: string, id: string) {
  const [row] = await tx
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.id, id),
        eq(organizationInvitations.organizationId, organizationId),
        isNull(organizationInvitations.usedAt),
        isNull(organizationInvitations.revokedAt),
      ),
    )
    .for('update');
  return row;
}

export async function renewInvitation(
  tx: Tx,
  id: string,
  values: { tokenHash: string; invitedBy: string; sentAt: Date; expiresAt: Date },
) {
  await tx.update(organizationInvitations).set(values).where(eq(organizationInvitations.id, id));
}

export async function revokeInvitation(tx: Tx, id: string, at: Date) {
  await tx.update(organizationInvitations).set({ revokedAt: at }).where(eq(organizationInvitations.id, id));
}

/** The invitation of a key (by its hash), whatever its state; locked with `lock`. */
export async function findInvitationByHash(tx: Tx, tokenHash: string, lock = false) {
  const query = tx.select().from(organizationInvitations).where(eq(organizationInvitations.tokenHash, tokenHash));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function markInvitationUsed(tx: Tx, id: string, userId: string, at: Date) {
  await tx
    .update(organizationInvitations)
    .set({ usedAt: at, usedBy: userId })
    .where(eq(organizationInvitations.id, id));
}

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Organizations by name, newest first, with their member counts. */
export async function listOrganizations(db: Db, input: { search: string; page: number; pageSize: number }) {
  const where = input.search ? ilike(organizations.name, containing(input.search)) : undefined;
  const members =
    sql<number>`(SELECT count(*) FROM organization_members m WHERE m.organization_id = ${organizations.id})`.mapWith(
      Number,
    );
  const [rows, [total]] = await Promise.all([
    db
      .select({ organization: organizations, members })
      .from(organizations)
      .where(where)
      .orderBy(desc(organizations.createdAt), asc(organizations.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(organizations).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Organizations this person owns. */
export async function ownedBy(tx: Tx, userId: string) {
  return tx.select().from(organizations).where(eq(organizations.ownerId, userId));
}
