import { toast } from 'react-toastify';
import { ApiError, createApiClient } from '@parley/api-client';
import { FORCED_LOGOUT_STATUS } from '@parley/contract/values';
import { clearSession, getToken } from './session';
import { currentLanguage, getI18n } from './i18n';
import { queryClient } from './query-client';

const FORCED_LOGOUT_TOAST = 'forced-logout';

/** The session ended: forget it. Protected routes then send the visitor to /login. */
function endSession() {
  clearSession();
  queryClient.clear();
}

function onForcedLogout() {
  endSession();
  toast.warning(getI18n().t('common:session.loggedOut'), { toastId: FORCED_LOGOUT_TOAST });
}

export const apiClient = createApiClient({
  getToken,
  getLanguage: currentLanguage,
  onForcedLogout,
  onUnauthorized: endSession,
});

/**
 * fetch for the calls the typed client does not cover (multipart uploads, streamed answers, file bytes): the same
 * bearer and `lang-type` headers, and the same forced-logout (409) and 401 handling. Resolves with the response when
 * it is not an error; otherwise throws an ApiError carrying the server's localized message.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('lang-type', currentLanguage());
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  } catch (cause) {
    if ((cause as Error)?.name === 'AbortError') throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', (cause as Error)?.message || 'Network error');
  }
  if (response.ok && !(response.headers.get('content-type') ?? '').includes('json')) return response;

  // JSON answers carry their status in the body too (a 200 with body status 409 is still a forced logout).
  const text = await response.text();
  type ErrorBody = { status?: unknown; code?: unknown; message?: unknown };
  let body: ErrorBody | null = null;
  try {
    body = text ? (JSON.parse(text) as ErrorBody) : null;
  } catch {
    body = null;
  }
  const status = typeof body?.status === 'number' ? body.status : response.status;
  if (response.ok && status < 400) {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const error = new ApiError(
    status,
    typeof body?.code === 'string' ? body.code : 'HTTP_ERROR',
    typeof body?.message === 'string' ? body.message : response.statusText || `HTTP ${response.status}`,
  );
  if (status === FORCED_LOGOUT_STATUS || response.status === FORCED_LOGOUT_STATUS) onForcedLogout();
  else if (response.status === 401 && token) endSession();
  throw error;
}

/** The message to show for a failed call: the server's localized text when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return getI18n().t('common:errors.network');
    if (error.message) return error.message;
  }
  return getI18n().t('common:errors.generic');
}

export { ApiError };
