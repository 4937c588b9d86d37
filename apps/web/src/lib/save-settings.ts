import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Settings, SettingsUpdate } from '@parley/contract';
import { ApiError, apiClient, errorMessage } from './api';
import { getI18n } from './i18n';
import { settingsKey } from './settings';
import { toast, withToast } from './toast';

const SAVED_TOAST = 'settings-saved';
const FAILED_TOAST = 'settings-failed';

/**
 * Saves are numbered: while a later one is on its way, an earlier one's answer (the server's settings before the
 * later change) must not put back what the person has just changed.
 */
let lastSave = 0;

/**
 * A settings page's change: shown at once, saved to the account (where the extension reads it), then confirmed with
 * one "Saved." toast however many switches are flipped; when the server refuses, the value goes back and the toast
 * says why in the person's language. (Apart from lib/settings.ts: pages that only read the settings, such as the
 * chat, do not load it.)
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) => apiClient.request('updateSettings', { body }),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: settingsKey });
      const before = queryClient.getQueryData<Settings>(settingsKey);
      if (before) queryClient.setQueryData<Settings>(settingsKey, { ...before, ...body });
      return { before, save: ++lastSave };
    },
    onSuccess: (result, _body, context) => {
      if (context.save === lastSave) queryClient.setQueryData(settingsKey, result.data);
      const text = getI18n().t('settings:saved');
      withToast((toast) => {
        toast.dismiss(FAILED_TOAST);
        if (toast.isActive(SAVED_TOAST)) toast.update(SAVED_TOAST, { render: text });
        else toast.success(text, { toastId: SAVED_TOAST });
      });
    },
    onError: (error, _body, context) => {
      // The latest save failed: back to what was there before it (a later one keeps its own change).
      if (context?.before && context.save === lastSave) queryClient.setQueryData(settingsKey, context.before);
      toast.dismiss(SAVED_TOAST);
      // A session that ended has its own message (and the page goes to sign-in).
      if (error instanceof ApiError && (error.status === 401 || error.status === 409)) return;
      toast.error(getI18n().t('settings:saveFailed', { message: errorMessage(error) }), { toastId: FAILED_TOAST });
      void queryClient.invalidateQueries({ queryKey: settingsKey });
    },
  });
}
