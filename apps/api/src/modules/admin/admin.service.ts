import type {
  AdminAction,
  AdminAudit,
  AdminCredits,
  AdminErrorLogs,
  AdminOrganizationMembers,
  AdminOrganizations,
  AdminUser,
  AdminUserPlan,
  AdminUserSort,
  CurrentPlan,
} from '@parley/contract';
import type { Db } from '../../db/client.js';
import { afterConflicts } from '../../db/unavailable.js';
import { DomainError } from '../../lib/errors.js';
import { toProfile, type Directory, type DirectoryEntry } from '../accounts/index.js';
import type { BillingService, Caller, PaymentsService, WalletsAdmin, WalletSummary } from '../billing/index.js';
import type { AutomationsService } from '../linkedin/index.js';
import * as q from './admin.queries.js';
import type { RecordAudit } from './audit.js';
import type { AdminOrganizationsPort } from './organizations-port.js';

/** The site admin calling (the routes let no one else in). */
export type SiteAdmin = Pick<Caller, 'user' | 'session'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const planView = (plan: CurrentPlan): AdminUserPlan['plan'] => ({
  plan: plan.plan,
  basePlan: plan.basePlan,
  subscription: plan.subscription,
});

/**
 * The admin portal's calls. Each change is recorded in the audit log (who, what, on whom, before → after, when) in
 * the transaction that makes it, so there is no change without its record. Other modules are used through what they
 * export: accounts' directory, billing's wallets and payments, organizations' port (once it exists).
 */
export function createAdminService({
  db,
  directory,
  billing,
  wallets,
  payments,
  organizations,
  automations,
  recordAudit,
}: {
  db: Db;
  directory: Directory;
  billing: Pick<BillingService, 'profileCredits'>;
  wallets: WalletsAdmin;
  payments: Pick<PaymentsService, 'currentPlan' | 'removePlanOf'>;
  organizations: AdminOrganizationsPort | null;
  /** LinkedIn's automations: a site admin may delete anyone's (recorded in the audit log by that module). */
  automations: Pick<AutomationsService, 'adminDelete' | 'list'>;
  recordAudit: RecordAudit;
}) {
  const actorOf = (caller: SiteAdmin) => ({ id: caller.user.id, email: caller.user.email });

  /** Wallets for these entries; an account without one yet gets it opened (as any of its own requests would). */
  async function summariesOf(entries: DirectoryEntry[]) {
    const found = await wallets.summaries(entries.map((e) => e.account.id));
    const missing = entries.filter((e) => !found.has(e.account.id));
    if (missing.length) {
      await Promise.all(missing.map((e) => billing.profileCredits({ user: e.account })));
      for (const [id, summary] of await wallets.summaries(missing.map((e) => e.account.id))) found.set(id, summary);
    }
    return found;
  }

  function toAdminUser(entry: DirectoryEntry, summary: WalletSummary | undefined): AdminUser {
    const use = summary?.use ?? { basic: 0, advance: 0, extraAdvance: 0 };
    const credits = summary?.wallet.credits ?? {
      dailyCredit: 0,
      basicCredit: 0,
      advanceCredit: 0,
      extraAdvanceCredit: 0,
    };
    return {
      ...toProfile(entry.account, {
        credits,
        basicUse: use.basic,
        advanceUse: use.advance,
        extraAdvanceUse: use.extraAdvance,
        monthlyUse: use.basic + use.advance + use.extraAdvance,
      }),
      plan: summary?.wallet.plan ?? 'free',
      lastLoginAt: iso(entry.lastLoginAt),
      activeSessions: entry.activeSessions,
    };
  }

  async function adminUser(id: string) {
    const entry = await directory.find(id);
    return toAdminUser(entry, (await summariesOf([entry])).get(id));
  }

  /** The person as billing's payments see a payer: their account and wallet. */
  async function payerOf(id: string) {
    const entry = await directory.find(id);
    const summary = (await summariesOf([entry])).get(id);
    if (!summary) throw new DomainError('NOT_FOUND', { what: 'wallet' });
    return { entry, payer: { user: entry.account, wallet: summary.wallet }, summary };
  }

  return {
    async users(input: { search: string; sort: AdminUserSort; order: 'asc' | 'desc'; page: number; pageSize: number }) {
      const { entries, total } = await directory.list(input);
      const summaries = await summariesOf(entries);
      return {
        users: entries.map((e) => toAdminUser(e, summaries.get(e.account.id))),
        total,
        page: input.page,
        pageSize: input.pageSize,
      };
    },

    /**
     * Credits (all four at once), lifetime free credits and multiple login, in one transaction with their audit
     * records. Credits are set under the wallet's row lock (concurrent spends are never lost).
     */
    async editUser(
      caller: SiteAdmin,
      input: { id: string; credits?: AdminCredits; lifetimeUser?: boolean; multipleLogin?: boolean },
    ) {
      const target = await directory.find(input.id);
      const actor = actorOf(caller);
      const on = { userId: input.id, email: target.account.email };
      await db.transaction(async (tx) => {
        const flags = {
          ...(input.lifetimeUser !== undefined ? { lifetimeUser: input.lifetimeUser } : {}),
          ...(input.multipleLogin !== undefined ? { multipleLogin: input.multipleLogin } : {}),
        };
        if (Object.keys(flags).length) {
          const before = await directory.setFlags(input.id, flags, tx);
          for (const [key, action] of [
            ['lifetimeUser', 'user.lifetime'],
            ['multipleLogin', 'user.multipleLogin'],
          ] as const) {
            const value = flags[key];
            if (value === undefined) continue;
            await recordAudit(
              { actor, action, target: on, before: { [key]: before[key] }, after: { [key]: value } },
              tx,
            );
          }
        }
        if (input.credits) {
          const before = await wallets.setCredits(tx, input.id, input.credits);
          await recordAudit(
            { actor, action: 'user.credits' satisfies AdminAction, target: on, before, after: input.credits },
            tx,
          );
        }
      });
      return adminUser(input.id);
    },

    /** Ends every session of the person (an admin acting on themself keeps the session they are using). */
    async forceLogout(caller: SiteAdmin, id: string) {
      const target = await directory.find(id);
      const keepId = id === caller.user.id ? caller.session.id : undefined;
      const ended = await db.transaction(async (tx) => {
        const ended = await directory.endSessions(id, { keepId, tx });
        await recordAudit(
          {
            actor: actorOf(caller),
            action: 'user.forceLogout' satisfies AdminAction,
            target: { userId: id, email: target.account.email },
            before: { activeSessions: target.activeSessions },
            after: { activeSessions: target.activeSessions - ended },
          },
          tx,
        );
        return ended;
      });
      return { ended };
    },

    /**
     * Deletes the person and everything of theirs. A paid subscription is canceled at the provider first (no one is
     * charged for an account that is gone); then the account goes, with its audit record, in one transaction. Their
     * own work meanwhile (a reservation, a renewal) takes their wallet's row, then their account's (the ledger row's
     * foreign key): the deletion takes them in that order too. Should it still wait for another transaction that
     * waits for it (a charge holds its ledger row, then the wallet's), PostgreSQL ends one of the two, and the
     * deletion, if it was the one, runs again.
     */
    async deleteUser(caller: SiteAdmin, id: string) {
      if (id === caller.user.id) throw new DomainError('CANNOT_DELETE_SELF');
      const { entry, payer, summary } = await payerOf(id);
      // 'remove' is offered while a paid subscription is live at the provider.
      if ((await payments.currentPlan(payer)).actions.includes('remove')) await payments.removePlanOf(payer);
      await afterConflicts(() =>
        db.transaction(async (tx) => {
          await organizations?.beforeUserDeleted(tx, id);
          await wallets.beforeUserDeleted(tx, id);
          const deleted = await directory.delete(caller.user, id, tx);
          await recordAudit(
            {
              actor: actorOf(caller),
              action: 'user.delete' satisfies AdminAction,
              target: { userId: id, email: deleted.email },
              before: {
                email: entry.account.email,
                name: entry.account.name,
                role: deleted.role,
                plan: summary.wallet.plan,
                credits: summary.wallet.credits,
              },
              after: null,
            },
            tx,
          );
        }),
      );
      return { deleted: 1 };
    },

    /** Ends the person's plan now (a paid subscription at the provider, or an admin's grant). */
    async removeUserPlan(caller: SiteAdmin, id: string): Promise<AdminUserPlan> {
      const { entry, payer } = await payerOf(id);
      const before = await payments.currentPlan(payer);
      const after = await payments.removePlanOf(payer);
      // Recorded after the fact: the change was made at the payment provider, outside any transaction of ours.
      await recordAudit({
        actor: actorOf(caller),
        action: 'user.removePlan' satisfies AdminAction,
        target: { userId: id, email: entry.account.email },
        before: { plan: before.plan, subscription: before.subscription },
        after: { plan: after.plan, subscription: after.subscription },
      });
      return { userId: id, organizationId: null, plan: planView(after) };
    },

    async userPlan(input: { id: string; org?: string | undefined }): Promise<AdminUserPlan> {
      if (input.org) {
        if (!organizations) throw new DomainError('NOT_FOUND', { what: 'organization' });
        await directory.find(input.id);
        // An organization's plan is its owner's: the plan of the wallet its members spend from.
        const { payer } = await payerOf(await organizations.payerOf(input.org, input.id));
        return { userId: input.id, organizationId: input.org, plan: planView(await payments.currentPlan(payer)) };
      }
      const { payer } = await payerOf(input.id);
      return { userId: input.id, organizationId: null, plan: planView(await payments.currentPlan(payer)) };
    },

    async organizations(input: { search: string; page: number; pageSize: number }): Promise<AdminOrganizations> {
      if (!organizations) return { available: false, organizations: [], total: 0 };
      return { available: true, ...(await organizations.list(input)) };
    },

    /** An organization with its members, their use this month, and its pending invitations. */
    async organizationMembers(id: string): Promise<AdminOrganizationMembers> {
      if (!organizations) throw new DomainError('NOT_FOUND', { what: 'organization' });
      return organizations.details(id);
    },

    /** Creates an organization for the person with `ownerEmail` (its owner and first admin; their plan pays). */
    async createOrganization(caller: SiteAdmin, input: { name: string; ownerEmail: string }) {
      if (!organizations) throw new DomainError('NOT_FOUND', { what: 'organization' });
      const owner = await directory.findByEmail(input.ownerEmail);
      return organizations.create(caller.user, owner.account, input.name);
    },

    async errorLogs(input: q.ErrorLogFilters & { page: number; pageSize: number }): Promise<AdminErrorLogs> {
      const { rows, total } = await q.listErrorLogs(db, input);
      return {
        logs: rows.map((r) => ({
          id: r.id,
          at: r.createdAt.toISOString(),
          requestId: r.requestId,
          method: r.method,
          url: r.url,
          status: r.status,
          userId: r.userId,
          message: r.message,
          stack: r.stack,
        })),
        total,
      };
    },

    /** One entry (404 when it is not there), or every entry older than `before`. */
    async deleteErrorLogs(caller: SiteAdmin, which: { id: string } | { before: Date }) {
      const deleted = await db.transaction(async (tx) => {
        const deleted = await q.deleteErrorLogs(tx, which);
        if ('id' in which && deleted === 0) throw new DomainError('NOT_FOUND', { what: 'error log' });
        await recordAudit(
          {
            actor: actorOf(caller),
            action: 'errorLog.delete' satisfies AdminAction,
            before: 'id' in which ? { id: which.id } : { before: which.before.toISOString() },
            after: { deleted },
          },
          tx,
        );
        return deleted;
      });
      return { deleted };
    },

    /** One person's automations, as they see them (404 for no such person). */
    async automationsOf(userId: string) {
      await directory.find(userId);
      return automations.list({ user: { id: userId } });
    },

    /** Deletes anyone's automation (spec §7 POST /api/admin/deleteAutomation). */
    async deleteAutomation(caller: SiteAdmin, automationId: string) {
      return automations.adminDelete(caller, automationId);
    },

    async audit(input: {
      action?: string | undefined;
      targetUserId?: string | undefined;
      page: number;
      pageSize: number;
    }): Promise<AdminAudit> {
      const { rows, total } = await q.listAudit(db, input);
      return {
        entries: rows.map((r) => ({
          id: r.id,
          at: r.at.toISOString(),
          actorId: r.actorId,
          actorEmail: r.actorEmail,
          action: r.action,
          targetUserId: r.targetUserId,
          targetEmail: r.targetEmail,
          organizationId: r.organizationId,
          before: r.before ?? null,
          after: r.after ?? null,
        })),
        total,
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
