/**
 * Runs `call` with a signal that aborts after `ms`, or as soon as `signal` (the client's) does. The time limit is a
 * timer of its own, cleared when the call ends: a timeout signal combined with AbortSignal.any can be collected, and
 * its timeout lost, while the call runs (see images.service).
 */
export async function withDeadline<T>(
  ms: number,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new DOMException('The call timed out', 'TimeoutError')), ms);
  const left = () => stop.abort(signal!.reason);
  if (signal?.aborted) left();
  else signal?.addEventListener('abort', left, { once: true });
  try {
    return await call(stop.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', left);
  }
}
