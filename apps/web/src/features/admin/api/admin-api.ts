import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCreateOrganizationBody, AdminCredits, BodyOf } from '@parley/contract';
import { apiClient } from '../../../lib/api';

export type UsersQuery = Required<Pick<BodyOf<'adminUsers'>, 'search' | 'sort' | 'order' | 'page' | 'pageSize'>>;
export type ErrorLogsQuery = BodyOf<'adminErrorLogs'>;
export type AuditQuery = BodyOf<'adminAudit'>;
export type OrganizationsQuery = Required<BodyOf<'adminOrganizations'>>;

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: UsersQuery) => ['admin', 'users', q] as const,
  /** `org`: the plan that pays for the person in that organization (its owner's), rather than their own. */
  userPlan: (id: string, org?: string) => ['admin', 'userPlan', id, org ?? null] as const,
  organizations: (q: OrganizationsQuery) => ['admin', 'organizations', q] as const,
  organization: (id: string) => ['admin', 'organization', id] as const,
  errorLogs: (q: ErrorLogsQuery) => ['admin', 'errorLogs', q] as const,
  audit: (q: AuditQuery) => ['admin', 'audit', q] as const,
  automations: (userId: string) => ['admin', 'automations', userId] as const,
};

/** Pages keep the previous page on screen while the next one loads. */
export const useAdminUsers = (query: UsersQuery) =>
  useQuery({
    queryKey: adminKeys.users(query),
    queryFn: () => apiClient.call('adminUsers', { body: query }),
    placeholderData: keepPreviousData,
  });

export const useAdminUserPlan = (id: string, org?: string) =>
  useQuery({
    queryKey: adminKeys.userPlan(id, org),
    queryFn: () => apiClient.call('adminUserPlan', { body: org ? { id, org } : { id } }),
  });

export const useAdminOrganizations = (query: OrganizationsQuery) =>
  useQuery({
    queryKey: adminKeys.organizations(query),
    queryFn: () => apiClient.call('adminOrganizations', { body: query }),
    placeholderData: keepPreviousData,
  });

/** One organization: its members (with their use this month) and its pending invitations. */
export const useAdminOrganization = (id: string) =>
  useQuery({
    queryKey: adminKeys.organization(id),
    queryFn: () => apiClient.call('adminOrganizationMembers', { body: { id } }),
  });

export const useErrorLogs = (query: ErrorLogsQuery) =>
  useQuery({
    queryKey: adminKeys.errorLogs(query),
    queryFn: () => apiClient.call('adminErrorLogs', { body: query }),
    placeholderData: keepPreviousData,
  });

export const useAudit = (query: AuditQuery) =>
  useQuery({
    queryKey: adminKeys.audit(query),
    queryFn: () => apiClient.call('adminAudit', { body: query }),
    placeholderData: keepPreviousData,
  });

/** One person's LinkedIn automations. */
export const useAdminAutomations = (userId: string) =>
  useQuery({
    queryKey: adminKeys.automations(userId),
    queryFn: () => apiClient.call('adminAutomations', { body: { id: userId } }),
  });

/**
 * Every admin action changes what the portal shows (people, plans, logs, the audit log): all of it is read again.
 * Each resolves with the whole envelope, whose localized message says what the server did.
 */
function useAdminMutation<I, O>(fn: (input: I) => Promise<{ data: O; message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export type UserEdit = { id: string; credits?: AdminCredits; lifetimeUser?: boolean; multipleLogin?: boolean };

export const useEditUser = () => useAdminMutation((body: UserEdit) => apiClient.request('adminEditUser', { body }));
export const useForceLogout = () =>
  useAdminMutation((id: string) => apiClient.request('adminForceLogout', { query: { id } }));
export const useDeleteUser = () =>
  useAdminMutation((id: string) => apiClient.request('adminDeleteUser', { query: { id } }));
export const useRemoveUserPlan = () =>
  useAdminMutation((id: string) => apiClient.request('adminRemoveUserPlan', { query: { id } }));
export const useDeleteAutomation = () =>
  useAdminMutation((automationId: string) => apiClient.request('adminDeleteAutomation', { query: { automationId } }));
export const useDeleteErrorLogs = () =>
  useAdminMutation((query: { id: string } | { before: string }) => apiClient.request('adminDeleteErrorLog', { query }));

/** The new organization's details come back with it: they are shown at once, and everything else is read again. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCreateOrganizationBody) => apiClient.request('adminCreateOrganization', { body }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(adminKeys.organization(data.organization.id), data);
      void queryClient.invalidateQueries({
        queryKey: adminKeys.all,
        predicate: (query) => query.queryKey[1] !== 'organization' || query.queryKey[2] !== data.organization.id,
      });
    },
  });
}
