import type { Credits } from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { NotFoundError } from '../../lib/errors.js';
import { utcDate } from '../../lib/time.js';
import { toWallet, type Wallet } from './billing.service.js';
import { lockWalletOf } from './payments.queries.js';
import * as q from './wallets-admin.queries.js';

/** A person's wallet as the admin portal shows it: plan, balances, and credits used over the last 30 days. */
export type WalletSummary = {
  wallet: Wallet;
  use: { basic: number; advance: number; extraAdvance: number };
};

const toSummary = (row: q.WalletSummaryRow): WalletSummary => ({
  wallet: toWallet(row),
  use: { basic: row.basicUse, advance: row.advanceUse, extraAdvance: row.extraAdvanceUse },
});

/** What the site admin portal needs of wallets: read them in bulk, and set a person's balances. */
export function createWalletsAdmin({ db, clock = () => new Date() }: { db: Db; clock?: () => Date }) {
  return {
    /** The wallets of these people (by user id), with their use over the last 30 days; people without one are absent. */
    async summaries(userIds: string[]) {
      const rows = await q.walletSummaries(db, userIds, utcDate(clock()));
      return new Map(rows.map((row) => [row.userId, toSummary(row)]));
    },

    async summary(userId: string) {
      const found = (await this.summaries([userId])).get(userId);
      if (!found) throw new NotFoundError('wallet');
      return found;
    },

    /**
     * Before a person's account is deleted in `tx`: their own wallets, locked the way their reservations and renewals
     * lock them (the wallet's row, then the account's), so that the deletion waits for those instead of holding the
     * account's row while they wait for it.
     */
    async beforeUserDeleted(tx: Tx, userId: string) {
      await lockWalletOf(tx, userId);
    },

    /**
     * Sets a person's four balances (see q.setBalances: concurrent spends are never lost, the ledger stays whole).
     * Runs in `tx` when given, so that the caller can record the change in the same transaction. Returns the balances
     * the wallet had just before.
     */
    async setCredits(tx: Tx | null, userId: string, to: Credits): Promise<Credits> {
      const before = await q.setBalances(tx ?? db, userId, to);
      if (!before) throw new NotFoundError('wallet');
      return before;
    },
  };
}

export type WalletsAdmin = ReturnType<typeof createWalletsAdmin>;
