import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf, KeyProvider } from '@parley/contract';
import { apiClient } from '../../../lib/api';
import { modelsKey } from '../../../lib/models';

export const apiKeysKey = ['apiKeys', 'list'] as const;

export const useApiKeys = () => useQuery({ queryKey: apiKeysKey, queryFn: () => apiClient.call('apiKeys') });

/** A key added or removed changes which models are available. */
export function useAddApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'addApiKey'>) => apiClient.call('addApiKey', { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: apiKeysKey });
      void queryClient.invalidateQueries({ queryKey: modelsKey });
    },
  });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: KeyProvider) => apiClient.call('deleteApiKey', { query: { provider } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: apiKeysKey });
      void queryClient.invalidateQueries({ queryKey: modelsKey });
    },
  });
}
