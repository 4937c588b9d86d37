import { useQuery } from '@tanstack/react-query';
import { apiClient } from './api';

/** The model catalogue with what this user can use now; adding or removing an API key changes it. */
export const modelsKey = ['models'] as const;

export const useModels = () => useQuery({ queryKey: modelsKey, queryFn: () => apiClient.call('models') });
