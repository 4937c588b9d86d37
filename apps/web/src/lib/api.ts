import { toast } from 'react-toastify';
import { ApiError, createApiClient } from '@parley/api-client';
import { clearSession, getToken } from './session';
import { currentLanguage, getI18n } from './i18n';
import { queryClient } from './query-client';

const FORCED_LOGOUT_TOAST = 'forced-logout';

/** The session ended: forget it. Protected routes then send the visitor to /login. */
function endSession() {
  clearSession();
  queryClient.clear();
}

export const apiClient = createApiClient({
  getToken,
  getLanguage: currentLanguage,
  onForcedLogout: () => {
    endSession();
    toast.warning(getI18n().t('common:session.loggedOut'), { toastId: FORCED_LOGOUT_TOAST });
  },
  onUnauthorized: () => {
    endSession();
  },
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
