import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  Automation,
  Draft,
  DraftStatus,
  FollowedProfile,
  Keyword,
  LinkedinSettings,
  PostInput,
} from '@parley/contract';
import { linkedinApi, type KeywordInput, type PostIdeaInput, type ProfileInput } from '@parley/api-client/linkedin';
import { apiClient } from '../../../lib/api';

export const linkedinKeys = {
  all: ['linkedin'] as const,
  connection: ['linkedin', 'connection'] as const,
  settings: ['linkedin', 'settings'] as const,
  keywords: ['linkedin', 'keywords'] as const,
  profiles: ['linkedin', 'profiles'] as const,
  drafts: (status?: DraftStatus) => ['linkedin', 'drafts', status ?? 'all'] as const,
  automations: ['linkedin', 'automations'] as const,
  stats: (days: number) => ['linkedin', 'stats', days] as const,
};

export const useConnection = () =>
  useQuery({ queryKey: linkedinKeys.connection, queryFn: ({ signal }) => linkedinApi.connection(apiClient, signal) });

export const useLinkedinSettings = () =>
  useQuery({ queryKey: linkedinKeys.settings, queryFn: ({ signal }) => linkedinApi.settings(apiClient, signal) });

export const useKeywords = () =>
  useQuery({ queryKey: linkedinKeys.keywords, queryFn: ({ signal }) => linkedinApi.keywords(apiClient, signal) });

export const useProfiles = () =>
  useQuery({ queryKey: linkedinKeys.profiles, queryFn: ({ signal }) => linkedinApi.profiles(apiClient, signal) });

export const useDrafts = (status?: DraftStatus) =>
  useQuery({
    queryKey: linkedinKeys.drafts(status),
    queryFn: ({ signal }) => linkedinApi.drafts(apiClient, status, signal),
  });

export const useAutomations = () =>
  useQuery({
    queryKey: linkedinKeys.automations,
    queryFn: ({ signal }) => linkedinApi.automations(apiClient, signal),
  });

export const useStats = (days = 90) =>
  useQuery({ queryKey: linkedinKeys.stats(days), queryFn: ({ signal }) => linkedinApi.stats(apiClient, days, signal) });

export const useConnect = () => useMutation({ mutationFn: () => linkedinApi.connect(apiClient) });

export function useLinkedinCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, state }: { code: string; state: string }) => linkedinApi.callback(apiClient, code, state),
    onSuccess: (connection) => queryClient.setQueryData(linkedinKeys.connection, connection),
  });
}

export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => linkedinApi.logout(apiClient),
    onSettled: () => queryClient.invalidateQueries({ queryKey: linkedinKeys.connection }),
  });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<LinkedinSettings>) => linkedinApi.updateSettings(apiClient, change),
    onSuccess: (settings) => queryClient.setQueryData(linkedinKeys.settings, settings),
  });
}

const replaceIn = <T extends { id: string }>(list: T[] | undefined, item: T) =>
  list ? (list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item]) : list;

export function useSaveKeyword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { id: string; input: Partial<KeywordInput> } | { id?: undefined; input: KeywordInput }) =>
      change.id === undefined
        ? linkedinApi.addKeyword(apiClient, change.input)
        : linkedinApi.updateKeyword(apiClient, change.id, change.input),
    onSuccess: (keyword) => queryClient.setQueryData<Keyword[]>(linkedinKeys.keywords, (l) => replaceIn(l, keyword)),
  });
}

export function useDeleteKeyword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => linkedinApi.deleteKeyword(apiClient, id),
    onSuccess: (_a, id) =>
      queryClient.setQueryData<Keyword[]>(linkedinKeys.keywords, (l) => l?.filter((k) => k.id !== id)),
  });
}

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { id: string; input: Partial<ProfileInput> } | { id?: undefined; input: ProfileInput }) =>
      change.id === undefined
        ? linkedinApi.addProfile(apiClient, change.input)
        : linkedinApi.updateProfile(apiClient, change.id, change.input),
    onSuccess: (profile) =>
      queryClient.setQueryData<FollowedProfile[]>(linkedinKeys.profiles, (l) => replaceIn(l, profile)),
  });
}

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => linkedinApi.deleteProfile(apiClient, id),
    onSuccess: (_a, id) =>
      queryClient.setQueryData<FollowedProfile[]>(linkedinKeys.profiles, (l) => l?.filter((p) => p.id !== id)),
  });
}

export function useUpdateDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: { text?: string; status?: DraftStatus } }) =>
      linkedinApi.updateDraft(apiClient, id, change),
    onSuccess: (draft) => {
      for (const status of [undefined, 'pending', 'accepted', 'dismissed'] as const) {
        queryClient.setQueryData<Draft[]>(linkedinKeys.drafts(status), (list) => {
          if (!list) return list;
          const kept = list.filter((d) => d.id !== draft.id);
          return status === undefined || draft.status === status
            ? list.map((d) => (d.id === draft.id ? draft : d))
            : kept;
        });
      }
    },
  });
}

const automationsChanged = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: linkedinKeys.automations });

function rememberAutomation(queryClient: QueryClient, automation: Automation) {
  queryClient.setQueryData<Automation[]>(linkedinKeys.automations, (list) => {
    if (!list) return list;
    return list.some((a) => a.automationId === automation.automationId)
      ? list.map((a) => (a.automationId === automation.automationId ? automation : a))
      : [automation, ...list];
  });
}

export const useWritePost = () =>
  useMutation({ mutationFn: (input: PostIdeaInput) => linkedinApi.writePost(apiClient, input) });

export function useSavePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: PostInput }) =>
      id ? linkedinApi.updatePost(apiClient, id, input) : linkedinApi.addPost(apiClient, input),
    onSuccess: (automation) => {
      if (automation) rememberAutomation(queryClient, automation);
      automationsChanged(queryClient);
    },
  });
}

export function useDisableDailyRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (automationId: string) => linkedinApi.disableDailyRun(apiClient, automationId),
    onSuccess: (automation) => {
      if (automation) rememberAutomation(queryClient, automation);
      automationsChanged(queryClient);
    },
  });
}

/** Sets a stopped automation Pending again (a post in Error runs at once; see the publisher for one left in doubt). */
export function useRetryAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (automationId: string) => linkedinApi.updateAutomationStatus(apiClient, automationId, 'Pending'),
    onSuccess: (automation) => {
      if (automation) rememberAutomation(queryClient, automation);
      automationsChanged(queryClient);
    },
  });
}

export function useDeleteAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (automationId: string) => linkedinApi.deleteAutomation(apiClient, automationId),
    onSuccess: (_a, automationId) => {
      queryClient.setQueryData<Automation[]>(linkedinKeys.automations, (l) =>
        l?.filter((a) => a.automationId !== automationId),
      );
      automationsChanged(queryClient);
    },
  });
}

export function useImportStats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => linkedinApi.importStats(apiClient, file, file.name || 'analytics.csv'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['linkedin', 'stats'] }),
  });
}
