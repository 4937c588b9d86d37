import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@parley/contract';
import { apiClient } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'updateProfile'>) => apiClient.request('updateProfile', { body }),
    onSuccess: (result) => queryClient.setQueryData(currentUserKey, result.data),
  });
}

/** Spec §7: password changes carry the header deviceType WEB. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: BodyOf<'changePassword'>) =>
      apiClient.request('changePassword', { body, headers: { deviceType: 'WEB' } }),
  });

/** Redeems a licence code on the signed-in account; the profile everywhere shows the new plan and credits. */
export function useRedeemCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiClient.call('upgradeToAppDeal', { body: { code } }),
    onSuccess: (result) => queryClient.setQueryData(currentUserKey, result.user),
  });
}
