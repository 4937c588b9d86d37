import { z } from 'zod';
import { cleanLine, cleanText } from './clean.js';

export { cleanLine, cleanText };

/** `z.string()` for multi-line text, cleaned (see `cleanText`); chain bounds after it. */
export const text = () => z.string().overwrite(cleanText);

/** `z.string()` for one line, cleaned (see `cleanLine`); chain bounds after it. */
export const line = () => z.string().overwrite(cleanLine);

/**
 * An http(s) URL, normalized by the URL parser: the parser accepts control characters inside a URL (and percent-
 * encodes them), the database would not have accepted them raw.
 */
export const httpUrl = (max = 2048) => z.url({ protocol: /^https?$/, normalize: true }).max(max);

/** The years an instant sent to the server may fall in: the database stores no year 0, and none is needed. */
export const INSTANT_YEARS = { min: 1970, max: 9999 } as const;

/** True when `ms` (milliseconds since 1970, UTC) falls within INSTANT_YEARS. */
export function instantInRange(ms: number) {
  if (!Number.isFinite(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= INSTANT_YEARS.min && year <= INSTANT_YEARS.max;
}

/**
 * An ISO 8601 instant (`2026-11-28T10:00:00Z`, an offset allowed) within INSTANT_YEARS: the format alone lets
 * `0000-01-01T00:00:00Z` through, which JavaScript reads as a date and the database refuses.
 */
export const instant = () =>
  z.iso.datetime({ offset: true }).refine((value) => instantInRange(Date.parse(value)), { message: 'instant' });
