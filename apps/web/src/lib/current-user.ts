import { useQuery } from '@tanstack/react-query';
import type { Profile } from '@parley/contract';
import { apiClient } from './api';
import { useToken } from './session';

export const currentUserKey = ['user', 'profile'] as const;

/** The signed-in user's profile (shared by the shell and the pages). */
export function useCurrentUser() {
  const token = useToken();
  return useQuery<Profile>({
    queryKey: currentUserKey,
    queryFn: () => apiClient.call('profile'),
    enabled: Boolean(token),
  });
}
