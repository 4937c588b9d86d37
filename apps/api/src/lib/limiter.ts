/**
 * At most `max` holders at once; the others wait in arrival order. `acquire` resolves with the release function,
 * which may be called more than once (only the first call counts).
 *
 * Work nobody waits for (`acquire({ background: true })`: what is done after an answer) goes behind: it takes a place
 * only when no other work waits for one, and holds at most `max − 1` places at once (one when `max` is 1), so that a
 * request arriving meanwhile finds a place free.
 */
export function createLimiter(max: number) {
  const backgroundMax = Math.max(1, max - 1);
  let active = 0;
  let activeBackground = 0;
  const waiting: (() => void)[] = [];
  const waitingBackground: (() => void)[] = [];
  const grant = (background: boolean) => {
    active += 1;
    if (background) activeBackground += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active -= 1;
      if (background) activeBackground -= 1;
      next();
    };
  };
  const backgroundMayStart = () => waiting.length === 0 && active < max && activeBackground < backgroundMax;
  function next() {
    if (active < max && waiting.length) waiting.shift()!();
    else if (backgroundMayStart() && waitingBackground.length) waitingBackground.shift()!();
  }
  return {
    acquire({ background = false }: { background?: boolean } = {}): Promise<() => void> {
      if (background) {
        if (backgroundMayStart() && !waitingBackground.length) return Promise.resolve(grant(true));
        return new Promise((resolve) => waitingBackground.push(() => resolve(grant(true))));
      }
      if (active < max) return Promise.resolve(grant(false));
      return new Promise((resolve) => waiting.push(() => resolve(grant(false))));
    },
    /**
     * `acquire()` for work that `signal` may call off while it waits: it then leaves the queue and rejects with the
     * signal's reason (a place already granted is the holder's to release).
     */
    acquireUnless(signal: AbortSignal): Promise<() => void> {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (active < max) return Promise.resolve(grant(false));
      return new Promise((resolve, reject) => {
        const turn = () => {
          signal.removeEventListener('abort', leave);
          resolve(grant(false));
        };
        const leave = () => {
          const at = waiting.indexOf(turn);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', leave, { once: true });
        waiting.push(turn);
      });
    },
    get active() {
      return active;
    },
    /** Work waiting for a place, background work apart. */
    get waiting() {
      return waiting.length;
    },
    get waitingBackground() {
      return waitingBackground.length;
    },
  };
}
