/**
 * Telling a database that is out of reach (restarting, failing over, a network blip) from a statement that failed
 * on its own merits, and waiting out the first kind for a few seconds where losing the write would lose data.
 */

/** Node's socket errors, and PostgreSQL's: connection exceptions (class 08), shutting down or starting up. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client was closed|Connection ended unexpectedly/i;

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown };

/** True when `error` or one of its causes (drivers and ORMs wrap the database's error; five deep at most) is `test`. */
function someCause(error: unknown, test: (e: ErrorLike) => boolean): boolean {
  for (let e = error as ErrorLike | undefined, depth = 0; e && depth < 5; depth++) {
    if (test(e)) return true;
    e = e.cause as ErrorLike | undefined;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(
    error,
    (e) =>
      (typeof e.code === 'string' &&
        (UNAVAILABLE_CODES.has(e.code) || UNAVAILABLE_STATES.has(e.code) || /^08/.test(e.code))) ||
      (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)),
  );
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * Runs `write`, and again while the database is out of reach, waiting 250 ms, then twice as long each time (about
 * 8 s in all). Any other failure, or the last one, is thrown. A write that may have committed before its answer was
 * lost must be safe to run twice (a guarded UPDATE, or an INSERT with its id chosen by the caller: see `insertOnce`).
 */
export async function whileUnavailable<T>(write: (attempt: number) => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
    }
  }
}

/** An INSERT with ids chosen by the caller, retried: a unique violation on a retry means the first try committed. */
export const insertOnce = (insert: () => Promise<unknown>) =>
  whileUnavailable(async (attempt) => {
    try {
      await insert();
    } catch (error) {
      if (attempt > 1 && isUniqueViolation(error)) return;
      throw error;
    }
  });

/**
 * PostgreSQL ended this transaction to break a deadlock (40P01: it and another waited for each other's rows) or a
 * serialization failure (40001): it was rolled back whole, and running it again is safe.
 */
export function isTransactionConflict(error: unknown): boolean {
  return someCause(error, (e) => e.code === '40P01' || e.code === '40001');
}

/**
 * Runs `transaction` (a whole transaction, nothing outside it), and again when PostgreSQL ended it to break a
 * deadlock or a serialization failure: by then the other side has gone on, and the second run waits for it instead.
 * Any other failure, or the last one, is thrown.
 */
export async function afterConflicts<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
    }
  }
}
