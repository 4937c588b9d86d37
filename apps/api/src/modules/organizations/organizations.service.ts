import {
  INVITATION_DAYS,
  type Invitation,
  type InviteResult,
  type Organization,
  type OrgAction,
  type OrgRole,
  type Team,
  type TeamMember,
} from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unavailable.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import type { Mailer } from '../../providers/mail/index.js';
import { renderMail } from '../../providers/mail/templates.js';
import type { Account, Directory } from '../accounts/index.js';
import type { OrganizationsBilling } from './billing-port.js';
import * as q from './organizations.queries.js';

/** Who is calling, as organizations needs to know them (billing's Caller has this shape). */
export type OrgCaller = { user: Account; organization: q.Membership | null };

/** Records an action in the audit log, in the change's transaction (the admin module's, passed in by app.ts). */
export type AuditSink = (
  record: {
    actor: { id: string; email: string };
    action: OrgAction;
    target?: { userId: string; email?: string | undefined } | undefined;
    organizationId: string;
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
  tx?: Tx,
) => Promise<void>;

const DAY_MS = 86_400_000;

/**
 * Two requests putting one person into organizations at the same moment (two joins, a join and a create): the
 * unique membership lets one in; the other is told they already belong to one.
 */
async function oneOrganizationEach<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('ALREADY_IN_ORGANIZATION');
    throw error;
  }
}
const actorOf = (user: Account) => ({ id: user.id, email: user.email });

/**
 * Organizations: who belongs, in which role, and the invitations that bring people in. Every change locks the
 * organization's row first (seats and "the last admin" are decided one change at a time) and is recorded in the
 * audit log in its own transaction. Who pays is billing's: it is told, in the same transaction, through `billing`.
 */
export function createOrganizationsService({
  db,
  billing,
  directory,
  mailer,
  publicUrl,
  recordAudit,
  clock = () => new Date(),
}: {
  db: Db;
  billing: OrganizationsBilling;
  directory: Directory;
  mailer: Mailer;
  publicUrl: string;
  recordAudit: AuditSink;
  clock?: () => Date;
}) {
  const toOrganization = async (
    row: q.OrganizationRow,
    counts: { members: number; pendingInvitations: number },
    tx?: Tx,
  ): Promise<Organization> => {
    const paid = (await billing.plansOf([row.id], tx)).get(row.id);
    return {
      id: row.id,
      name: row.name,
      seats: paid?.seats ?? 0,
      members: counts.members,
      pendingInvitations: counts.pendingInvitations,
      plan: paid?.plan ?? 'free',
      ownerId: row.ownerId,
      createdAt: row.createdAt.toISOString(),
    };
  };

  const liveInvitations = (rows: q.InvitationRow[], now: Date) => rows.filter((i) => i.expiresAt > now);

  /**
   * The organization's members with names and addresses, and their limits and use this month: everyone's for an
   * admin (`seeUseOf` 'all'), only their own for a member (`seeUseOf` their id).
   */
  async function membersView(org: q.OrganizationRow, seeUseOf: 'all' | string, tx?: Tx) {
    const rows = await q.membersOf(tx ?? db, org.id);
    const [people, use] = await Promise.all([
      directory.people(
        rows.map((r) => r.userId),
        tx,
      ),
      billing.memberUse(org.id),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    const members: TeamMember[] = rows.map((r) => {
      const person = byId.get(r.userId);
      const spent = use.members.get(r.userId);
      const withUse = seeUseOf === 'all' || seeUseOf === r.userId;
      return {
        id: r.userId,
        name: person?.name ?? '',
        email: person?.email ?? '',
        role: r.role,
        joinedAt: r.joinedAt.toISOString(),
        isOwner: r.userId === org.ownerId,
        limit: withUse ? (spent?.limit ?? null) : null,
        used: withUse ? (spent?.used ?? 0) : null,
      };
    });
    return { members, month: use.month };
  }

  const invitationView = (rows: q.InvitationRow[], names: Map<string, string>, now: Date): Invitation[] =>
    rows.map((i) => ({
      id: i.id,
      email: i.email,
      sentAt: i.sentAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
      expired: i.expiresAt <= now,
      invitedBy: i.invitedBy ? (names.get(i.invitedBy) ?? null) : null,
    }));

  async function invitationsOf(organizationId: string, tx?: Tx) {
    const rows = await q.pendingInvitations(tx ?? db, organizationId);
    const inviters = [...new Set(rows.flatMap((r) => (r.invitedBy ? [r.invitedBy] : [])))];
    const names = new Map((await directory.people(inviters, tx)).map((p) => [p.id, p.name || p.email]));
    return invitationView(rows, names, clock());
  }

  /** The caller's organization as /organization shows it (re-read: the caller's own view after a change). */
  async function team(caller: OrgCaller): Promise<Team> {
    const membership = await q.findMembership(db, caller.user.id);
    if (!membership) {
      const own = await billing.ownPlan(db, caller.user);
      return {
        organization: null,
        role: null,
        members: [],
        canCreate: own.plan === 'team',
        month: clock().toISOString().slice(0, 7),
      };
    }
    const org = (await q.findOrganization(db, membership.organizationId))!;
    const isAdmin = membership.role === 'admin';
    const [{ members, month }, pending] = await Promise.all([
      membersView(org, isAdmin ? 'all' : caller.user.id),
      q.pendingInvitations(db, org.id),
    ]);
    return {
      organization: await toOrganization(org, {
        members: members.length,
        pendingInvitations: liveInvitations(pending, clock()).length,
      }),
      role: membership.role,
      members,
      canCreate: false,
      month,
    };
  }

  /**
   * Runs `fn` as an admin of the caller's organization, with the organization locked: the caller's membership is
   * read again under the lock (a role taken away a moment ago counts). NOT_FOUND when they belong to none, FORBIDDEN
   * when they are not an admin there.
   */
  async function asOrgAdmin<T>(caller: OrgCaller, fn: (tx: Tx, org: q.OrganizationRow) => Promise<T>) {
    return db.transaction(async (tx) => {
      const membership = await q.findMembership(tx, caller.user.id);
      if (!membership) throw new NotFoundError('organization');
      const org = await q.lockOrganization(tx, membership.organizationId);
      if (!org) throw new NotFoundError('organization');
      const again = await q.findMembership(tx, caller.user.id);
      if (!again || again.organizationId !== org.id) throw new NotFoundError('organization');
      if (again.role !== 'admin') throw new DomainError('FORBIDDEN');
      return fn(tx, org);
    });
  }

  /** A member of `org` (NOT_FOUND for anyone else: another organization's people are not acknowledged). */
  async function memberOf(tx: Tx, org: q.OrganizationRow, userId: string) {
    const member = await q.findMembership(tx, userId);
    if (!member || member.organizationId !== org.id) throw new NotFoundError('member');
    return member;
  }

  /** SEATS_FULL unless `more` people fit beside the members and the unexpired invitations (organization locked). */
  async function seatsFor(tx: Tx, org: q.OrganizationRow, more: number, now: Date) {
    const [members, pending, plans] = await Promise.all([
      q.membersOf(tx, org.id),
      q.pendingInvitations(tx, org.id),
      billing.plansOf([org.id], tx),
    ]);
    const seats = plans.get(org.id)?.seats ?? 0;
    if (more > 0 && members.length + liveInvitations(pending, now).length + more > seats) {
      throw new DomainError('SEATS_FULL', { seats });
    }
  }

  const adminCount = async (tx: Tx, organizationId: string) =>
    (await q.membersOf(tx, organizationId)).filter((m) => m.role === 'admin').length;

  async function emailOf(userId: string, tx: Tx) {
    return (await directory.people([userId], tx))[0]?.email;
  }

  async function sendInvitation(inviter: Account, org: q.OrganizationRow, email: string, key: string) {
    const link = `${publicUrl}/join-organization?key=${encodeURIComponent(key)}`;
    await mailer.send(
      renderMail(inviter.language, 'invite', email, {
        name: '',
        link,
        days: INVITATION_DAYS,
        inviter: inviter.name || inviter.email,
        organization: org.name,
      }),
    );
  }

  /** Creates an organization owned by `owner` (its first admin), paid for by the owner's wallet. */
  async function createFor(actor: Account, owner: Account, name: string, requireTeamPlan: boolean) {
    return oneOrganizationEach(() =>
      db.transaction(async (tx) => {
        if (await q.findMembership(tx, owner.id)) throw new DomainError('ALREADY_IN_ORGANIZATION');
        if (requireTeamPlan && (await billing.ownPlan(tx, owner)).plan !== 'team') {
          throw new DomainError('TEAM_PLAN_REQUIRED');
        }
        const org = await q.insertOrganization(tx, { name, ownerId: owner.id });
        await q.insertMember(tx, { organizationId: org.id, userId: owner.id, role: 'admin' });
        if (!(await billing.linkOwnerWallet(tx, org.id, owner))) throw new DomainError('ALREADY_IN_ORGANIZATION');
        await recordAudit(
          {
            actor: actorOf(actor),
            action: 'organization.create',
            target: { userId: owner.id, email: owner.email },
            organizationId: org.id,
            before: null,
            after: { name, ownerId: owner.id },
          },
          tx,
        );
        return org;
      }),
    );
  }

  return {
    team,

    /** A Team subscriber creates their organization: they own it (their plan pays) and are its first admin. */
    async create(caller: OrgCaller, input: { name: string }) {
      await createFor(caller.user, caller.user, input.name, true);
      return team(caller);
    },

    async invitations(caller: OrgCaller) {
      return asOrgAdmin(caller, async (tx, org) => ({ invitations: await invitationsOf(org.id, tx) }));
    },

    /**
     * Invites people by address: each gets a new single-use link (a pending invitation to the same address is
     * replaced, its old link stops working). Members and live invitations together stay within the seats; people
     * already in the organization are reported, not invited.
     */
    async invite(caller: OrgCaller, input: { emails: string[] }): Promise<InviteResult> {
      const emails = [...new Set(input.emails.map((e) => e.trim().toLowerCase()))];
      const now = clock();
      const sent: { email: string; key: string }[] = [];
      const { result, org } = await asOrgAdmin(caller, async (tx, org) => {
        const members = await q.membersOf(tx, org.id);
        const memberEmails = new Set(
          (
            await directory.people(
              members.map((m) => m.userId),
              tx,
            )
          ).map((p) => p.email.toLowerCase()),
        );
        const alreadyMembers = emails.filter((e) => memberEmails.has(e));
        const toInvite = emails.filter((e) => !memberEmails.has(e));
        const holding = new Set(liveInvitations(await q.pendingInvitations(tx, org.id), now).map((i) => i.email));
        await seatsFor(tx, org, toInvite.filter((e) => !holding.has(e)).length, now);
        for (const email of toInvite) {
          const key = newSecret();
          const row = await q.upsertInvitation(tx, {
            organizationId: org.id,
            email,
            tokenHash: hashSecret(key),
            invitedBy: caller.user.id,
            sentAt: now,
            expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
          });
          await recordAudit(
            {
              actor: actorOf(caller.user),
              action: 'organization.invite',
              organizationId: org.id,
              before: null,
              after: { email, invitationId: row.id },
            },
            tx,
          );
          sent.push({ email, key });
        }
        return { result: { invited: toInvite, alreadyMembers }, org };
      });
      // Mails go after the commit (the outbox stores each and retries delivery): no mail for a change that failed.
      for (const { email, key } of sent) await sendInvitation(caller.user, org, email, key);
      return result;
    },

    /** Sends an invitation again: a new link and a new expiry; the old link stops working. */
    async resendInvitation(caller: OrgCaller, id: string) {
      const now = clock();
      const key = newSecret();
      const { org, email } = await asOrgAdmin(caller, async (tx, org) => {
        const invitation = await q.lockPendingInvitation(tx, org.id, id);
        if (!invitation) throw new NotFoundError('invitation');
        // An expired invitation held no seat: sent again, it takes one, if one is free.
        if (invitation.expiresAt <= now) await seatsFor(tx, org, 1, now);
        await q.renewInvitation(tx, id, {
          tokenHash: hashSecret(key),
          invitedBy: caller.user.id,
          sentAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
        });
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: 'organization.inviteResend',
            organizationId: org.id,
            before: { sentAt: invitation.sentAt.toISOString() },
            after: { email: invitation.email, sentAt: now.toISOString() },
          },
          tx,
        );
        return { org, email: invitation.email };
      });
      await sendInvitation(caller.user, org, email, key);
      return { invitations: await invitationsOf(org.id) };
    },

    async revokeInvitation(caller: OrgCaller, id: string) {
      return asOrgAdmin(caller, async (tx, org) => {
        const invitation = await q.lockPendingInvitation(tx, org.id, id);
        if (!invitation) throw new NotFoundError('invitation');
        await q.revokeInvitation(tx, id, clock());
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: 'organization.inviteRevoke',
            organizationId: org.id,
            before: { email: invitation.email },
            after: null,
          },
          tx,
        );
        return { invitations: await invitationsOf(org.id, tx) };
      });
    },

    /**
     * Joins the organization of an invitation. The key must be pending and unexpired, the caller signed in with the
     * verified address it was sent to, in no organization yet; the person who invited must still be an admin there;
     * a seat must be free. Any other case changes nothing.
     */
    async join(caller: OrgCaller, key: string) {
      const now = clock();
      const tokenHash = hashSecret(key);
      return oneOrganizationEach(() =>
        db.transaction(async (tx) => {
          // The organization is locked before its invitation, in the order every admin's change takes them.
          const seen = await q.findInvitationByHash(tx, tokenHash);
          if (!seen) throw new DomainError('INVITATION_INVALID');
          const org = await q.lockOrganization(tx, seen.organizationId);
          const found = await q.findInvitationByHash(tx, tokenHash, true);
          if (
            !org ||
            !found ||
            found.organizationId !== org.id ||
            found.usedAt ||
            found.revokedAt ||
            found.expiresAt <= now
          ) {
            throw new DomainError('INVITATION_INVALID');
          }
          if (!caller.user.verified || caller.user.email.toLowerCase() !== found.email) {
            throw new DomainError('INVITATION_OTHER_EMAIL');
          }
          const inviter = found.invitedBy ? await q.findMembership(tx, found.invitedBy) : undefined;
          if (!inviter || inviter.organizationId !== org.id || inviter.role !== 'admin') {
            throw new DomainError('INVITATION_INVALID');
          }
          if (await q.findMembership(tx, caller.user.id)) throw new DomainError('ALREADY_IN_ORGANIZATION');
          const members = await q.membersOf(tx, org.id);
          const seats = (await billing.plansOf([org.id], tx)).get(org.id)?.seats ?? 0;
          if (members.length >= seats) throw new DomainError('SEATS_FULL', { seats });
          await q.insertMember(tx, { organizationId: org.id, userId: caller.user.id, role: 'user' });
          await q.markInvitationUsed(tx, found.id, caller.user.id, now);
          await billing.memberJoined(tx, org.id, caller.user.id);
          await recordAudit(
            {
              actor: actorOf(caller.user),
              action: 'organization.join',
              target: { userId: caller.user.id, email: caller.user.email },
              organizationId: org.id,
              before: null,
              after: { role: 'user', invitationId: found.id },
            },
            tx,
          );
          return { organization: { id: org.id, name: org.name } };
        }),
      );
    },

    /** Removes a member (not the owner: their plan pays). Their own wallet pays for them again. */
    async removeMember(caller: OrgCaller, userId: string) {
      await asOrgAdmin(caller, async (tx, org) => {
        const member = await memberOf(tx, org, userId);
        if (userId === org.ownerId) throw new DomainError('OWNER_STAYS');
        if (member.role === 'admin' && (await adminCount(tx, org.id)) <= 1) throw new DomainError('LAST_ORG_ADMIN');
        await q.deleteMember(tx, org.id, userId);
        await billing.memberLeft(tx, org.id, userId);
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: 'organization.remove',
            target: { userId, email: await emailOf(userId, tx) },
            organizationId: org.id,
            before: { role: member.role },
            after: null,
          },
          tx,
        );
      });
      return team(caller);
    },

    /** Gives a member the admin role (what the caller holds: no more). */
    async setRole(caller: OrgCaller, userId: string, role: OrgRole) {
      await asOrgAdmin(caller, async (tx, org) => {
        const member = await memberOf(tx, org, userId);
        if (member.role === role) return;
        // The owner pays: only they may step down (Switch To User); no other admin can take their role.
        if (role === 'user' && userId === org.ownerId && caller.user.id !== org.ownerId) {
          throw new DomainError('OWNER_STAYS');
        }
        // Stepping down (one's own "Switch To User") or demoting another: an admin must remain.
        if (role === 'user' && (await adminCount(tx, org.id)) <= 1) throw new DomainError('LAST_ORG_ADMIN');
        await q.setRole(tx, org.id, userId, role);
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: role === 'admin' ? 'organization.makeAdmin' : 'organization.makeUser',
            target: { userId, email: await emailOf(userId, tx) },
            organizationId: org.id,
            before: { role: member.role },
            after: { role },
          },
          tx,
        );
      });
      return team(caller);
    },

    /** A member's monthly credit limit (null: none). */
    async setLimit(caller: OrgCaller, input: { id: string; limit: number | null }) {
      await asOrgAdmin(caller, async (tx, org) => {
        await memberOf(tx, org, input.id);
        // No one limits the owner's spending from their own wallet but the owner.
        if (input.id === org.ownerId && caller.user.id !== org.ownerId) throw new DomainError('OWNER_STAYS');
        const changed = await billing.setMemberLimit(tx, org.id, input.id, input.limit);
        if (!changed) throw new NotFoundError('member');
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: 'organization.limit',
            target: { userId: input.id, email: await emailOf(input.id, tx) },
            organizationId: org.id,
            before: { limit: changed.before },
            after: { limit: input.limit },
          },
          tx,
        );
      });
      return team(caller);
    },

    /** Leaves organization `organizationId` (the owner stays; the last admin stays). */
    async leave(caller: OrgCaller, organizationId: string) {
      await db.transaction(async (tx) => {
        const org = await q.lockOrganization(tx, organizationId);
        if (!org) throw new NotFoundError('organization');
        const member = await memberOf(tx, org, caller.user.id);
        if (org.ownerId === caller.user.id) throw new DomainError('OWNER_STAYS');
        if (member.role === 'admin' && (await adminCount(tx, org.id)) <= 1) throw new DomainError('LAST_ORG_ADMIN');
        await q.deleteMember(tx, org.id, caller.user.id);
        await billing.memberLeft(tx, org.id, caller.user.id);
        await recordAudit(
          {
            actor: actorOf(caller.user),
            action: 'organization.leave',
            target: { userId: caller.user.id, email: caller.user.email },
            organizationId: org.id,
            before: { role: member.role },
            after: null,
          },
          tx,
        );
      });
      return team(caller);
    },

    /** For the site admin portal (the admin module checks the site admin role). */
    forSiteAdmin: {
      async list(input: { search: string; page: number; pageSize: number }) {
        const { rows, total } = await q.listOrganizations(db, input);
        const plans = await billing.plansOf(rows.map((r) => r.organization.id));
        return {
          organizations: rows.map(({ organization: o, members }) => ({
            id: o.id,
            name: o.name,
            members,
            seats: plans.get(o.id)?.seats ?? 0,
            plan: plans.get(o.id)?.plan ?? null,
            createdAt: o.createdAt.toISOString(),
          })),
          total,
        };
      },

      /** An organization with its members (their use this month) and pending invitations. */
      async details(id: string) {
        const org = await q.findOrganization(db, id);
        if (!org) throw new NotFoundError('organization');
        const [{ members }, invitations] = await Promise.all([membersView(org, 'all'), invitationsOf(org.id)]);
        return {
          organization: await toOrganization(org, {
            members: members.length,
            pendingInvitations: invitations.filter((i) => !i.expired).length,
          }),
          members,
          invitations,
        };
      },

      /** Creates an organization for `owner` (whatever their plan: its seats are their plan's). */
      async create(actor: Account, owner: Account, name: string) {
        const org = await createFor(actor, owner, name, false);
        return this.details(org.id);
      },

      /** The owner of an organization when `userId` is one of its members (NOT_FOUND otherwise). */
      async payerOf(organizationId: string, userId: string) {
        const org = await q.findOrganization(db, organizationId);
        const member = await q.findMembership(db, userId);
        if (!org || !member || member.organizationId !== org.id || !org.ownerId) throw new NotFoundError('member');
        return org.ownerId;
      },

      /**
       * In the transaction that deletes an account, before the row goes: an organization they own closes (its wallet
       * is theirs); from another, they leave — and if they were its last admin, its owner becomes admin again.
       */
      async beforeUserDeleted(tx: Tx, userId: string) {
        for (const org of await q.ownedBy(tx, userId)) {
          await q.lockOrganization(tx, org.id);
          await billing.organizationClosed(tx, org.id);
          await q.deleteOrganization(tx, org.id);
        }
        const member = await q.findMembership(tx, userId);
        if (!member) return;
        const org = await q.lockOrganization(tx, member.organizationId);
        await q.deleteMember(tx, member.organizationId, userId);
        await billing.memberLeft(tx, member.organizationId, userId);
        if (org?.ownerId && member.role === 'admin' && (await adminCount(tx, org.id)) === 0) {
          await q.setRole(tx, org.id, org.ownerId, 'admin');
        }
      },
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
