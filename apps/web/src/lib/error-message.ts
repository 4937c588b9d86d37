import { ApiError } from '@parley/api-client';
import { getI18n } from './i18n';

/** The message to show for a failed call: the server's localized text when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return getI18n().t('common:errors.network');
    if (error.message) return error.message;
  }
  return getI18n().t('common:errors.generic');
}
