import type { BodyOf, DataOf, EndpointName, ParamsOf, QueryOf } from '@parley/contract';
import { FORCED_LOGOUT_STATUS, pickUiLanguage, ROUTES } from '@parley/contract/values';

/** A failed call: the server's status, stable code and localized message (`{ status, code, message }`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: { path: string; message: string }[] | undefined;
  /** With OUT_OF_CREDITS: what the call needed and what the wallet has (see the contract's ErrorBody). */
  readonly credits: { tier: string; needed: number; available: number } | undefined;
  constructor(
    status: number,
    code: string,
    message: string,
    issues?: { path: string; message: string }[],
    credits?: { tier: string; needed: number; available: number },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
    this.credits = credits;
  }
}

/**
 * Why a forced logout happened, as the server said it in the person's language (another sign-in, a new password,
 * every device signed out: docs/decisions/001), or null when the answer said only that the session ended (a bare
 * 409). Callers fall back to 'You have been logged out'.
 */
export function loggedOutReason(error: ApiError): string | null {
  return error.code === 'SESSION_REPLACED' && error.message ? error.message : null;
}

/** Where the bearer token lives (localStorage in the web app, the background's session in the extension). */
export type TokenStore = {
  get(): string | null | undefined;
  /** Forgets the token: the server ended the session (409) or refused the token (401). */
  drop(): void;
};

export type ApiClientOptions = {
  /** '' for the same origin (the web app served by the API). */
  baseUrl?: string;
  token: TokenStore;
  /** The interface language, sent as `lang-type` on every call (spec §5); anything but es / fr is sent as `en`. */
  language: () => string | null | undefined;
  /**
   * The session ended elsewhere (a body status 409, or HTTP 409; docs/decisions/001): the token has been dropped, say
   * 'You have been logged out'. Called once per session, however many calls were out with its token.
   */
  onLoggedOut?: (error: ApiError) => void;
  /** A 401 to a call sent with the current token: the token has been dropped. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
};

type CallInput<N extends EndpointName> = (BodyOf<N> extends undefined ? { body?: undefined } : { body: BodyOf<N> }) &
  (QueryOf<N> extends undefined ? { query?: undefined } : { query: QueryOf<N> }) &
  (ParamsOf<N> extends undefined ? { params?: undefined } : { params: ParamsOf<N> }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

export type CallArgs<N extends EndpointName> =
  BodyOf<N> extends undefined
    ? QueryOf<N> extends undefined
      ? ParamsOf<N> extends undefined
        ? [input?: CallInput<N>]
        : [input: CallInput<N>]
      : [input: CallInput<N>]
    : [input: CallInput<N>];

export type ApiResult<N extends EndpointName> = { data: DataOf<N>; message: string; status: number };

/** `{ status, message, data }` on success, `{ status, code, message, issues? }` on failure. */
export type Envelope = {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  data?: unknown;
  issues?: unknown;
  credits?: unknown;
};

const creditsOf = (value: unknown) => {
  const v = value as { tier?: unknown; needed?: unknown; available?: unknown } | null | undefined;
  return v && typeof v.tier === 'string' && typeof v.needed === 'number' && typeof v.available === 'number'
    ? { tier: v.tier, needed: v.needed, available: v.available }
    : undefined;
};
export type SendInit = { method: string; body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal };
/** A successful answer. A JSON one has been read (`text`, and `body` when it parses); any other comes unread. */
export type ApiAnswer = { response: Response; text: string | null; body: Envelope | null };
type Answer = ApiAnswer & { token: string | null };

const isJson = (response: Response) => (response.headers.get('content-type') ?? '').includes('json');

export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  /** The 409 and 401 rules, for every kind of call: only the session that made the call is ended, and only once. */
  function fail(answer: Answer): never {
    const { response, body, token } = answer;
    const status = typeof body?.status === 'number' ? body.status : response.status;
    const error = new ApiError(
      status,
      typeof body?.code === 'string' ? body.code : 'HTTP_ERROR',
      typeof body?.message === 'string' ? body.message : response.statusText || `HTTP ${response.status}`,
      Array.isArray(body?.issues) ? (body.issues as { path: string; message: string }[]) : undefined,
      creditsOf(body?.credits),
    );
    if (token && options.token.get() === token) {
      if (status === FORCED_LOGOUT_STATUS || response.status === FORCED_LOGOUT_STATUS) {
        options.token.drop();
        options.onLoggedOut?.(error);
      } else if (status === 401 || response.status === 401) {
        options.token.drop();
        options.onUnauthorized?.(error);
      }
    }
    throw error;
  }

  /**
   * Any call: sends the bearer token and `lang-type`, and reads a JSON answer's envelope (a 200 whose body status is 409
   * is still a forced logout). Errors throw an ApiError; other answers (a stream, a file) come back unread. The
   * multipart, streaming and file calls (streams.ts) go through here too.
   */
  async function send(path: string, sent: SendInit): Promise<ApiAnswer> {
    const token = options.token.get() || null;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...sent.headers,
      'lang-type': pickUiLanguage(options.language()),
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await doFetch(baseUrl + path, {
        method: sent.method,
        headers,
        body: sent.body,
        signal: sent.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      if ((cause as Error)?.name === 'AbortError' || sent.signal?.aborted) throw cause;
      throw new ApiError(0, 'NETWORK_ERROR', (cause as Error)?.message || 'Network error');
    }
    if (response.ok && !isJson(response)) return { response, text: null, body: null };
    const text = await response.text();
    let body: Envelope | null = null;
    try {
      const parsed: unknown = text ? JSON.parse(text) : null;
      body = parsed && typeof parsed === 'object' ? (parsed as Envelope) : null;
    } catch {
      body = null;
    }
    const status = typeof body?.status === 'number' ? body.status : response.status;
    if (!response.ok || status >= 400) fail({ response, text, body, token });
    return { response, text, body };
  }

  /** A JSON call of the contract; resolves with the whole envelope. */
  async function request<N extends EndpointName>(name: N, ...[input]: CallArgs<N>): Promise<ApiResult<N>> {
    const endpoint = ROUTES[name];
    const i = (input ?? {}) as {
      body?: unknown;
      query?: Record<string, unknown>;
      params?: Record<string, string>;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    };
    let path: string = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = i.params?.[name];
      if (!value) throw new TypeError(`${name} is missing for ${endpoint.path}`);
      // Dots too: a segment of "." or ".." would be resolved away by fetch.
      return encodeURIComponent(value).replace(/\./g, '%2E');
    });
    if (i.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(i.query)) if (v !== undefined && v !== null) params.set(k, String(v));
      const qs = params.toString();
      if (qs) path += `?${qs}`;
    }
    const json = i.body !== undefined;
    const { response, body } = await send(path, {
      method: endpoint.method,
      headers: json ? { ...i.headers, 'content-type': 'application/json' } : i.headers,
      body: json ? JSON.stringify(i.body) : undefined,
      signal: i.signal,
    });
    return {
      data: body?.data as DataOf<N>,
      message: typeof body?.message === 'string' ? body.message : '',
      status: typeof body?.status === 'number' ? body.status : response.status,
    };
  }

  /** The payload only (the `data` field). */
  async function call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<DataOf<N>> {
    return (await request(name, ...args)).data;
  }

  return { call, request, send };
}

export type ApiClient = ReturnType<typeof createApiClient>;
