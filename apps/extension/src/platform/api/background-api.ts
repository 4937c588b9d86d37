import { createApiClient, type ApiClient, type ApiError } from '@parley/api-client';
import { api, type EndpointName } from '@parley/contract';
import { API_ORIGIN } from '../../config';
import { CONTENT_SCRIPT_ENDPOINTS, type ApiCallResult } from '../messaging/protocol';
import { MessageError, type Handler } from '../messaging/router';

/**
 * The API client of the background worker: the only code that sends the token anywhere (@parley/api-client, as the
 * web app: lang-type, the envelope, and the 409 and 401 rules). Pages and content scripts reach it through API_CALL
 * and CHAT_PORT; they never import it.
 */
export function createBackgroundApiClient(deps: {
  session: { token: () => string | null; drop: () => void };
  language: () => string;
  /** A 409: the session ended elsewhere; `loggedOutReason` says why. The token is already dropped. */
  onLoggedOut: (error: ApiError) => void;
  /** A 401 to a call made with the token: it was refused. The token is already dropped. */
  onUnauthorized: () => void;
}): ApiClient {
  return createApiClient({
    baseUrl: API_ORIGIN,
    token: { get: deps.session.token, drop: deps.session.drop },
    language: deps.language,
    onLoggedOut: deps.onLoggedOut,
    onUnauthorized: deps.onUnauthorized,
    fetch: (...args) => fetch(...args),
  });
}

/** API_CALL: any endpoint for our pages, the writing helpers only for content scripts. */
export function createApiCallHandler(deps: {
  client: ApiClient;
  ready: Promise<unknown>;
  hasToken: () => boolean;
  onProfile: (profile: ApiCallResult<'profile'>['data']) => Promise<void>;
}): Handler<'API_CALL'> {
  return async (data, { kind }) => {
    const name = data?.name;
    if (typeof name !== 'string' || !Object.hasOwn(api, name)) {
      throw new MessageError('NOT_FOUND', 'Unknown endpoint', 404);
    }
    const endpointName = name as EndpointName;
    if (kind !== 'extension' && !CONTENT_SCRIPT_ENDPOINTS.has(endpointName)) {
      throw new MessageError('FORBIDDEN', 'Not allowed from this sender', 403);
    }
    await deps.ready;
    if (api[endpointName].auth && !deps.hasToken()) {
      throw new MessageError('UNAUTHENTICATED', 'Kindly login...', 401);
    }
    const input = (data.input ?? {}) as { body?: unknown; query?: unknown; params?: unknown };
    const request = deps.client.request as (
      n: EndpointName,
      i: { body?: unknown; query?: unknown; params?: unknown },
    ) => Promise<{ data: unknown; message: string }>;
    const result = await request(endpointName, { body: input.body, query: input.query, params: input.params });
    if (endpointName === 'profile') await deps.onProfile(result.data as ApiCallResult<'profile'>['data']);
    return { data: result.data, message: result.message } as ApiCallResult;
  };
}
