/**
 * An organization's invitation opened signed out, kept in this browser until the person can answer it. A new person
 * follows the link, signs up, confirms their address from a second mail (maybe in another tab: localStorage is shared
 * by the browser's tabs), signs in and goes through onboarding; then signing in, or onboarding's end, takes them to
 * the invitation instead of home (safe-path.ts landingAfterSignIn, routes/onboarding.tsx).
 *
 * It lives in lib rather than features/organization because the stand-alone sign-in page and clearSession read it;
 * and it imports nothing from the contract's root, which would bring zod to that page (docs/decisions/021): the join
 * page, which has the contract, says how long to keep it (INVITATION_DAYS). The key is a secret for the invited
 * address: it is never shown, put in a title or a message, or logged. It is forgotten when the person answers (joins,
 * "Not now", an error answer), on sign-out, and when its time is up.
 */

export const PENDING_JOIN_STORAGE_KEY = 'pendingJoin';

const DAY_MS = 24 * 60 * 60 * 1000;

type Stored = { key: string; storedAt: number; expiresAt: number };

/** The join page for `key`. */
export const joinPath = (key: string) => `/join-organization?key=${encodeURIComponent(key)}`;

/** Keeps `key` for `days` from `now`, with the time it was kept; the last invitation opened wins. */
export function rememberPendingJoin(key: string, days: number, now: number = Date.now()): void {
  const stored: Stored = { key, storedAt: now, expiresAt: now + days * DAY_MS };
  try {
    localStorage.setItem(PENDING_JOIN_STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage full or refused: the link in the mail still works.
  }
}

export function forgetPendingJoin(): void {
  try {
    localStorage.removeItem(PENDING_JOIN_STORAGE_KEY);
  } catch {
    // Nothing could have been kept.
  }
}

function read(): Stored | null {
  try {
    const raw = localStorage.getItem(PENDING_JOIN_STORAGE_KEY);
    if (raw === null) return null;
    const value = JSON.parse(raw) as Partial<Stored> | null;
    if (
      value &&
      typeof value.key === 'string' &&
      value.key.length > 0 &&
      typeof value.storedAt === 'number' &&
      typeof value.expiresAt === 'number'
    ) {
      return { key: value.key, storedAt: value.storedAt, expiresAt: value.expiresAt };
    }
  } catch {
    // Not JSON: forgotten below.
  }
  forgetPendingJoin();
  return null;
}

/** The kept invitation's key, or null: nothing kept, unreadable, or out of time (those two are forgotten here). */
export function pendingJoinKey(now: number = Date.now()): string | null {
  const stored = read();
  if (!stored) return null;
  // Kept "in the future" (a clock put back) counts as out of time rather than kept for ever.
  if (stored.storedAt <= now && now < stored.expiresAt) return stored.key;
  forgetPendingJoin();
  return null;
}

/** The join page for the kept invitation, or null. */
export function pendingJoinPath(now: number = Date.now()): string | null {
  const key = pendingJoinKey(now);
  return key ? joinPath(key) : null;
}
