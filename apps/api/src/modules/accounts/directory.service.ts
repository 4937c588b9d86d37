import type { AdminUserSort } from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { toAccount, type Account } from './accounts.queries.js';
import * as q from './directory.queries.js';

/** An account as the site admin portal lists it. */
export type DirectoryEntry = { account: Account; lastLoginAt: Date | null; activeSessions: number };

export type AccountFlags = { lifetimeUser: boolean; multipleLogin: boolean };

const toEntry = (row: Awaited<ReturnType<typeof q.findUserWithSessions>> & object): DirectoryEntry => ({
  account: toAccount(row.user),
  lastLoginAt: row.lastLoginAt,
  activeSessions: row.activeSessions,
});

/**
 * Every account, for the site admin portal: search and page, change the flags an admin may change, end sessions,
 * delete. Who may call these is decided by the caller (the admin module checks the site admin role).
 */
export function createDirectory({ db }: { db: Db }) {
  /**
   * Changes run in the caller's transaction when it passes one (the admin module records each change in its audit
   * log in the same transaction: both commit or neither), in one of their own otherwise.
   */
  const inTx = <T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>) => (tx ? fn(tx) : db.transaction(fn));

  return {
    async list(input: { search: string; sort: AdminUserSort; order: 'asc' | 'desc'; page: number; pageSize: number }) {
      const { rows, total } = await q.listUsers(db, input);
      return { entries: rows.map(toEntry), total };
    },

    async find(id: string): Promise<DirectoryEntry> {
      const row = await q.findUserWithSessions(db, id);
      if (!row) throw new NotFoundError('user');
      return toEntry(row);
    },

    /** The name and address of each of these accounts (missing ones are left out), for lists of people. */
    people: (ids: string[], tx?: Tx) => q.findPeople(tx ?? db, ids),

    /** The account with this address (compared without case). */
    async findByEmail(email: string): Promise<DirectoryEntry> {
      const id = await q.findIdByEmail(db, email);
      if (!id) throw new NotFoundError('user');
      return this.find(id);
    },

    /** Lifetime free credits and multiple login, with the values they had before, under the account's row lock. */
    async setFlags(id: string, flags: Partial<AccountFlags>, tx?: Tx): Promise<AccountFlags> {
      return inTx(tx, async (tx) => {
        const locked = await q.lockUser(tx, id, 'FOR NO KEY UPDATE');
        if (!locked) throw new NotFoundError('user');
        await q.setFlags(tx, id, flags);
        return { lifetimeUser: locked.lifetimeUser, multipleLogin: locked.multipleLogin };
      });
    },

    /**
     * Ends every live session of the account (all devices, web and extension): each answers 409 from its next call
     * on, as after any forced logout. `keepId` spares one (an admin signing themself out of their other devices).
     * Returns how many were ended.
     */
    async endSessions(id: string, options: { keepId?: string | undefined; tx?: Tx } = {}) {
      return inTx(options.tx, async (tx) => {
        if (!(await q.lockUser(tx, id))) throw new NotFoundError('user');
        return q.forceEndSessions(tx, id, options.keepId);
      });
    },

    /**
     * Deletes an account and everything that is theirs. A site admin cannot delete themself, and the last site admin
     * stays: the admins' rows are locked first, so two admins deleting each other at the same moment leave one.
     */
    async delete(actor: { id: string }, id: string, tx?: Tx) {
      if (actor.id === id) throw new DomainError('CANNOT_DELETE_SELF');
      return inTx(tx, async (tx) => {
        const admins = await q.lockSiteAdmins(tx);
        const target = await q.lockUser(tx, id);
        if (!target) throw new NotFoundError('user');
        if (target.role === 'admin' && admins.every((a) => a === id)) throw new DomainError('LAST_SITE_ADMIN');
        // The actor's own account may have been deleted (or demoted) since their request was let in.
        if (!admins.includes(actor.id)) throw new DomainError('FORBIDDEN');
        await q.deleteUser(tx, id);
        return { email: target.email, role: target.role };
      });
    },
  };
}

export type Directory = ReturnType<typeof createDirectory>;
