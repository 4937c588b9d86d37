import { DomainError } from './errors.js';
import type { RateLimitStore } from './rate-limit.js';

const WINDOW_MS = 60_000;

/**
 * How many AI calls (chat turns, writing helpers, transcription) one person and one client address may make a minute.
 * The counters live in the rate-limit store, so several instances share them (Redis).
 */
export function createAiLimits({ limits, perUser, perIp }: { limits: RateLimitStore; perUser: number; perIp: number }) {
  const hit = async (key: string, max: number) => {
    const { count, resetInMs } = await limits.hit(key, WINDOW_MS);
    if (count > max) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
  return {
    /** Counts one call from this address; 429 past the limit. Counted before the caller is known. */
    address: (ip: string) => hit(`ai:ip:${ip}`, perIp),
    /** Counts one call by this person; 429 past the limit. */
    person: (userId: string) => hit(`ai:user:${userId}`, perUser),
  };
}

export type AiLimits = ReturnType<typeof createAiLimits>;
