import { toast } from 'react-toastify';
import { ApiError, createApiClient } from '@parley/api-client';
import { clearSession, getToken } from './session';
import { currentLanguage, getI18n } from './i18n';
import { queryClient } from './query-client';

const FORCED_LOGOUT_TOAST = 'forced-logout';

/**
 * The web app's API client: every call (JSON, the streamed chat, uploads, file bytes) goes through it. It drops the
 * token itself (clearSession) when the session ended elsewhere (409) or the token was refused (401); protected routes
 * then send the visitor to /login.
 */
export const apiClient = createApiClient({
  token: { get: getToken, drop: clearSession },
  language: currentLanguage,
  onLoggedOut: () => {
    queryClient.clear();
    toast.warning(getI18n().t('common:session.loggedOut'), { toastId: FORCED_LOGOUT_TOAST });
  },
  onUnauthorized: () => queryClient.clear(),
});

/** The message to show for a failed call: the server's localized text when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return getI18n().t('common:errors.network');
    if (error.message) return error.message;
  }
  return getI18n().t('common:errors.generic');
}

export { ApiError };
