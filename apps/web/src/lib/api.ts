import { ApiError, createApiClient, loggedOutReason } from '@parley/api-client';
import { clearSession, getToken } from './session';
import { currentLanguage, getI18n } from './i18n';
import { queryClient } from './query-client';
import { toast } from './toast';

const FORCED_LOGOUT_TOAST = 'forced-logout';

/**
 * The web app's API client: every call (JSON, the streamed chat, uploads, file bytes) goes through it. It drops the
 * token itself (clearSession) when the session ended elsewhere (409) or the token was refused (401); protected routes
 * then send the visitor to /login.
 */
export const apiClient = createApiClient({
  token: { get: getToken, drop: clearSession },
  language: currentLanguage,
  onLoggedOut: (error) => {
    queryClient.clear();
    toast.warning(loggedOutReason(error) ?? getI18n().t('common:session.loggedOut'), { toastId: FORCED_LOGOUT_TOAST });
  },
  onUnauthorized: () => queryClient.clear(),
});

export { ApiError };
export { errorMessage } from './error-message';
