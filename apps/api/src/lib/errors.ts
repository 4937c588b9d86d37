import type { ErrorCode } from '@parley/contract';

/** A failure the person can act on. The error handler maps `code` to an HTTP status and a localized message. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', { what });
  }
}

export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    super('RATE_LIMITED', { minutes, count: minutes }, { 'retry-after': String(seconds) });
  }
}
