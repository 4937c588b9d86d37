import { DomainError } from '../../lib/errors.js';
import type { AdapterOptions, SearchOptions } from './types.js';

const DEFAULT_TIMEOUT_MS = 8000;
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;

export function clampLimit(limit: number | undefined): number {
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT)));
}

/** "fr-CA" → "fr": what search APIs understand as a language. */
export function baseLanguage(language: string | undefined): string | undefined {
  const base = language?.trim().toLowerCase().split(/[-_]/)[0];
  return base && /^[a-z]{2,3}$/.test(base) ? base : undefined;
}

/** Joins a path to an operator-configured base that may carry a path prefix (https://host/searxng/). */
export function endpoint(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/**
 * Calls the configured search provider (the operator chose the host, so no SSRF filter here). Any way it can fail —
 * refused, slow, non-2xx, not JSON — is SEARCH_UNAVAILABLE; only the caller's own abort passes through as is.
 */
export async function requestJson(
  url: URL,
  init: RequestInit,
  opts: SearchOptions,
  adapter: AdapterOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(adapter.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const response = await (adapter.fetch ?? fetch)(url, { ...init, signal });
    if (!response.ok) throw new DomainError('SEARCH_UNAVAILABLE');
    return await response.json();
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (error instanceof DomainError) throw error;
    throw new DomainError('SEARCH_UNAVAILABLE');
  }
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
