import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings, SettingsUpdate } from '@parley/contract';
import { apiClient } from './api';

export const settingsKey = ['settings'] as const;

/** Server-side settings (shared with the extension). */
export const useSettings = () =>
  useQuery<Settings>({ queryKey: settingsKey, queryFn: () => apiClient.call('settings') });

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) => apiClient.request('updateSettings', { body }),
    onSuccess: (result) => queryClient.setQueryData(settingsKey, result.data),
  });
}

/** The server's help pages (FAQ) for the settings menu, or null when it names none (then there is no link). */
export function useHelpUrl(): string | null {
  const config = useQuery({
    queryKey: ['auth', 'config'],
    queryFn: () => apiClient.call('publicConfig'),
    staleTime: Infinity,
  });
  return config.data?.helpUrl ?? null;
}
