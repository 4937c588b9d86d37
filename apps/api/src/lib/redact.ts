/**
 * What a log line or the stored error log may say about a request and an error. Requests carry secrets in their
 * query strings (verification tokens, reset keys, Google ID tokens) and people's words everywhere else; a failed
 * database statement carries its parameters in its message. Logs keep the shape, never the values.
 */

/** Query parameters whose values are identifiers, safe to log; every other value is replaced. */
const SAFE_PARAMS = new Set(['chatHistoryId', 'limit', 'provider', 'forceLogin', 'id', 'page']);

/** `url` with the value of every query parameter but the harmless ones replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const kept = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as it came, its value redacted
      }
      return SAFE_PARAMS.has(decoded) ? pair : `${name}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, q)}?${kept}`;
}

type ErrorLike = {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  code?: unknown;
  statusCode?: unknown;
  query?: unknown;
  params?: unknown;
  cause?: unknown;
  severity?: unknown;
  routine?: unknown;
};

export type SafeError = {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  statusCode?: number;
  cause?: SafeError;
};

/** A database error (node-postgres, PGlite): it has an SQLSTATE and the server's routine. */
const isDatabaseError = (e: ErrorLike) =>
  typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && (e.severity !== undefined || e.routine !== undefined);

/** A database message may quote the value it refused (`invalid input syntax for type uuid: "…"`): quotes go. */
const withoutQuoted = (message: string) => message.replace(/"[^"]*"/g, '"…"').replace(/\([^)]*\)=\([^)]*\)/g, '(…)');

/** The frames of a stack, without its first line (which repeats the message). */
function frames(stack: unknown): string {
  if (typeof stack !== 'string') return '';
  const at = stack.indexOf('\n    at ');
  return at === -1 ? '' : stack.slice(at);
}

/**
 * An error as it may be logged or stored: its type, a message without parameters or quoted values, its frames and
 * code, and its cause the same way. A failed Drizzle query keeps its SQL text (placeholders only), never `params`.
 */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!error || typeof error !== 'object') return { type: typeof error, message: String(error).slice(0, 500) };
  const e = error as ErrorLike;
  const type = typeof e.name === 'string' ? e.name : 'Error';
  let message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.query === 'string' && 'params' in e) message = `Failed query: ${e.query}`;
  else if (isDatabaseError(e)) message = withoutQuoted(message);
  const out: SafeError = { type, message: message.slice(0, 2000) };
  const stack = frames(e.stack);
  if (stack) out.stack = `${type}: ${out.message}${stack}`;
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  if (e.cause && depth < 3) out.cause = safeError(e.cause, depth + 1);
  return out;
}

/** pino serializers for the request and for errors: URLs redacted, errors made safe. */
export const logSerializers = {
  req: (req: { method?: string; url?: string; ip?: string; socket?: { remotePort?: number } }) => ({
    method: req.method,
    url: redactUrl(req.url ?? ''),
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  err: (error: unknown) => ({ stack: '', ...safeError(error) }),
};
