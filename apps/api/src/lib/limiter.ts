/**
 * At most `max` holders at once; the others wait in arrival order. `acquire` resolves with the release function,
 * which may be called more than once (only the first call counts).
 */
export function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const grant = () => {
    active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active -= 1;
      const next = waiting.shift();
      if (next) next();
    };
  };
  return {
    acquire(): Promise<() => void> {
      if (active < max) return Promise.resolve(grant());
      return new Promise((resolve) => waiting.push(() => resolve(grant())));
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
