import type { BodyOf, DataOf, EndpointName, QueryOf } from '@parley/contract';
import { FORCED_LOGOUT_STATUS, ROUTES } from '@parley/contract/values';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: { path: string; message: string }[] | undefined;
  constructor(status: number, code: string, message: string, issues?: { path: string; message: string }[]) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export type ApiClientOptions = {
  /** '' for the same origin (the web app served by the API). */
  baseUrl?: string;
  getToken: () => string | null | undefined;
  /** Sent as `lang-type` on every call (spec §5). */
  getLanguage: () => string;
  /** A response body with status 409: the session ended elsewhere. Called before the error is thrown. */
  onForcedLogout?: (error: ApiError) => void;
  /** A 401 while a token was sent: the token is no longer valid. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
};

type CallInput<N extends EndpointName> = (BodyOf<N> extends undefined ? { body?: undefined } : { body: BodyOf<N> }) &
  (QueryOf<N> extends undefined ? { query?: undefined } : { query: QueryOf<N> }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

export type CallArgs<N extends EndpointName> =
  BodyOf<N> extends undefined
    ? QueryOf<N> extends undefined
      ? [input?: CallInput<N>]
      : [input: CallInput<N>]
    : [input: CallInput<N>];

export type ApiResult<N extends EndpointName> = { data: DataOf<N>; message: string; status: number };

export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function request<N extends EndpointName>(name: N, ...[input]: CallArgs<N>): Promise<ApiResult<N>> {
    const endpoint = ROUTES[name];
    const i = (input ?? {}) as {
      body?: unknown;
      query?: Record<string, unknown>;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    };
    let url = baseUrl + endpoint.path;
    if (i.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(i.query)) if (v !== undefined && v !== null) params.set(k, String(v));
      const qs = params.toString();
      if (qs) url += `?${qs}`;
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'lang-type': options.getLanguage() || 'en',
      ...i.headers,
    };
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (i.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(i.body);
    }

    let response: Response;
    try {
      response = await doFetch(url, {
        method: endpoint.method,
        headers,
        body,
        signal: i.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      if ((cause as Error)?.name === 'AbortError') throw cause;
      throw new ApiError(0, 'NETWORK_ERROR', (cause as Error)?.message || 'Network error');
    }

    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      parsed = null;
    }
    const bodyStatus = typeof parsed?.status === 'number' ? parsed.status : response.status;

    if (!response.ok || bodyStatus >= 400) {
      const error = new ApiError(
        bodyStatus,
        typeof parsed?.code === 'string' ? parsed.code : 'HTTP_ERROR',
        typeof parsed?.message === 'string' ? parsed.message : response.statusText || `HTTP ${response.status}`,
        Array.isArray(parsed?.issues) ? (parsed.issues as { path: string; message: string }[]) : undefined,
      );
      if (bodyStatus === FORCED_LOGOUT_STATUS || response.status === FORCED_LOGOUT_STATUS)
        options.onForcedLogout?.(error);
      else if (response.status === 401 && token) options.onUnauthorized?.(error);
      throw error;
    }
    return {
      data: parsed?.data as DataOf<N>,
      message: typeof parsed?.message === 'string' ? parsed.message : '',
      status: bodyStatus,
    };
  }

  /** The payload only (the `data` field). */
  async function call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<DataOf<N>> {
    return (await request(name, ...args)).data;
  }

  return { call, request };
}

export type ApiClient = ReturnType<typeof createApiClient>;
