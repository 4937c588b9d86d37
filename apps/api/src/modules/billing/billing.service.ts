import type { Tier } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { whileUnavailable } from '../../db/unavailable.js';
import { DomainError } from '../../lib/errors.js';
import * as q from './billing.queries.js';

/** A reservation settles exactly once: charge when output was produced, refund when the request failed before any. */
export type Reservation = { charge(): Promise<void>; refund(): Promise<void>; readonly metered: boolean };

export const NOT_METERED: Reservation = { metered: false, charge: async () => {}, refund: async () => {} };

export function createCreditsService({ db }: { db: Db }) {
  const reservation = (ledgerId: string): Reservation => {
    // The first of charge or refund wins; later calls wait for it. Each statement only changes a reservation still
    // pending, so a retry after a lost answer (database out of reach for a moment) is harmless.
    let settling: Promise<void> | null = null;
    const settle = (fn: (db: Db, id: string) => Promise<void>) => () =>
      (settling ??= whileUnavailable(() => fn(db, ledgerId)));
    return { metered: true, charge: settle(q.chargeReservation), refund: settle(q.refundReservation) };
  };

  return {
    /**
     * Refunds reservations left pending by a process that stopped mid-request. No request holds a reservation longer
     * than its provider timeout, so anything older than `olderThanSeconds` (well past it) can only be such a leftover.
     */
    sweepStale: (olderThanSeconds: number) => q.refundStaleReservations(db, olderThanSeconds),

    /** Before the provider is called. Requests with the user's own key are not metered. */
    async reserve(
      userId: string,
      tier: Tier,
      feature: string,
      options: { metered: boolean; amount?: number },
    ): Promise<Reservation> {
      if (!options.metered) return NOT_METERED;
      const ledgerId = await q.reserveCredits(db, userId, tier, options.amount ?? 1, feature);
      if (!ledgerId) throw new DomainError('OUT_OF_CREDITS');
      return reservation(ledgerId);
    },

    /**
     * Reads the session of `tokenHash` and, if it is live at `now`, reserves one credit for its user, in one round
     * trip (see q.reserveForSession). `reservation` is null when none was made; the caller still checks the session.
     */
    async reserveForSession(tokenHash: string, tier: Tier, feature: string, now: Date) {
      const { found, ledgerId } = await q.reserveForSession(db, tokenHash, tier, 1, feature, now);
      return { found, reservation: ledgerId ? reservation(ledgerId) : null };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
