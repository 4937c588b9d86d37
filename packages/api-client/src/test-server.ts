import { vi } from 'vitest';
import { createApiClient, type ApiClientOptions } from './client';

// For the client's tests (not exported by the package): a client over a fake fetch, and the API's answers.

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

export const json = ({ status = 200, body, headers = {} }: Reply) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A client over a fake fetch that answers `reply` (a Response, or a JSON envelope) to every call. */
export function setup(
  reply: (url: string, init: RequestInit) => Response | Promise<Response>,
  overrides: { token?: string | null; language?: ApiClientOptions['language'] } = {},
) {
  let token: string | null = overrides.token === undefined ? 'tok-1' : overrides.token;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => reply(String(input), init));
  const drop = vi.fn(() => {
    token = null;
  });
  const onLoggedOut = vi.fn();
  const onUnauthorized = vi.fn();
  const client = createApiClient({
    baseUrl: 'http://api.test',
    language: overrides.language ?? (() => 'fr'),
    onLoggedOut,
    onUnauthorized,
    fetch: fetchMock as typeof fetch,
    token: { get: () => token, drop },
  });
  const headersOf = (n = 0) => new Headers(fetchMock.mock.calls[n]![1]?.headers);
  return {
    client,
    fetchMock,
    drop,
    onLoggedOut,
    onUnauthorized,
    headersOf,
    setToken: (t: string | null) => (token = t),
    token: () => token,
  };
}

export const ok = (data: unknown, message = 'OK') => json({ body: { status: 200, message, data } });
export const loggedOut = (httpStatus = 409) =>
  json({ status: httpStatus, body: { status: 409, code: 'SESSION_REPLACED', message: 'Vous avez été déconnecté' } });
