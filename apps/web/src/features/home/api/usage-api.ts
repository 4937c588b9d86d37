import { useQuery } from '@tanstack/react-query';
import type { Usage } from '@parley/contract';
import { apiClient } from '../../../lib/api';

export const usageKey = ['usage'] as const;

/** Credits, the last 30 days of use and the free tier's uses left today. */
export const useUsage = () => useQuery<Usage>({ queryKey: usageKey, queryFn: () => apiClient.call('usage') });
