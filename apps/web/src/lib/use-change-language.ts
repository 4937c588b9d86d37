import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Language } from '@parley/i18n';
import type { Profile } from '@parley/contract';
import { apiClient } from './api';
import { currentUserKey } from './current-user';
import { applyLanguage } from './i18n';
import { getToken } from './session';

/**
 * Switches the interface language at once (i18next + `lang` cookie), then stores it on the profile when signed in.
 * The switch does not wait for the server: the person sees their choice immediately.
 */
export function useChangeLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (language: Language) => {
      await applyLanguage(language);
      if (!getToken()) return null;
      return apiClient.call('updateProfile', { body: { language } });
    },
    onSuccess: (profile: Profile | null) => {
      if (profile) queryClient.setQueryData(currentUserKey, profile);
    },
  });
}
