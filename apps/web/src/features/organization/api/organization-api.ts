import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Team } from '@parley/contract';
import { apiClient } from '../../../lib/api';

export const organizationKeys = {
  all: ['organization'] as const,
  team: ['organization', 'team'] as const,
  invites: ['organization', 'invites'] as const,
};

/** The caller's organization, its members and what the caller may do (null organization: none yet). */
export const useTeam = () =>
  useQuery({ queryKey: organizationKeys.team, queryFn: () => apiClient.call('orgTeam', { body: {} }) });

/** Invitations waiting for an answer; admins only (the server refuses anyone else). */
export const useInvitations = (enabled: boolean) =>
  useQuery({
    queryKey: organizationKeys.invites,
    queryFn: () => apiClient.call('orgInvites', { body: {} }),
    enabled,
  });

type Answer<T> = Promise<{ data: T; message: string }>;

/**
 * A call that answers with the whole team: the answer replaces the cached one, so the page shows what the server
 * decided without reading it again. Resolves with the envelope, whose localized message says what was done.
 */
function useTeamMutation<I>(fn: (input: I) => Answer<Team>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => queryClient.setQueryData(organizationKeys.team, result.data),
  });
}

export const useCreateOrganization = () =>
  useTeamMutation((name: string) => apiClient.request('orgCreate', { body: { name } }));
export const useRemoveMember = () =>
  useTeamMutation((id: string) => apiClient.request('orgRemoveUser', { query: { id } }));
export const useMakeAdmin = () => useTeamMutation((id: string) => apiClient.request('orgMakeAdmin', { query: { id } }));
/** With one's own id: Switch To User. */
export const useMakeUser = () => useTeamMutation((id: string) => apiClient.request('orgMakeUser', { query: { id } }));
export const useSetMemberLimit = () =>
  useTeamMutation((body: { id: string; limit: number | null }) => apiClient.request('orgMemberLimit', { body }));

/** Invitations hold seats: every change to them changes the team's counts too. */
function useInvitationMutation<I, O>(fn: (input: I) => Answer<O>, apply?: (data: O) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      apply?.(result.data);
      void queryClient.invalidateQueries({ queryKey: organizationKeys.all });
    },
  });
}

export const useInvite = () =>
  useInvitationMutation((emails: string[]) => apiClient.request('orgInvite', { body: { emails } }));

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useInvitationMutation(
    (id: string) => apiClient.request('orgResendInvite', { query: { id } }),
    (data) => queryClient.setQueryData(organizationKeys.invites, data),
  );
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useInvitationMutation(
    (id: string) => apiClient.request('orgRevokeInvite', { query: { id } }),
    (data) => queryClient.setQueryData(organizationKeys.invites, data),
  );
}

/**
 * Leaving or joining changes whose wallet and plan the person spends from, which every page reads (profile credits,
 * the current plan): everything cached is read again.
 */
function useMembershipMutation<I, O>(fn: (input: I) => Answer<O>, apply?: (data: O) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      apply?.(result.data);
      void queryClient.invalidateQueries();
    },
  });
}

export function useLeaveOrganization() {
  const queryClient = useQueryClient();
  return useMembershipMutation(
    (organizationId: string) => apiClient.request('orgLeave', { query: { id: organizationId } }),
    (team) => queryClient.setQueryData(organizationKeys.team, team),
  );
}
export const useJoinOrganization = () =>
  useMembershipMutation((key: string) => apiClient.request('join', { body: { key } }));
