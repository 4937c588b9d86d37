import type {
  Automation,
  AutomationStatus,
  CustomPrompt,
  Draft,
  DraftStatus,
  FollowedProfile,
  Keyword,
  LinkedinConnection,
  LinkedinSettings,
  LinkedinStats,
  PostInput,
  STATS_IMPORT_NOTES,
} from '@parley/contract';
import { ROUTES, STREAM_PATHS } from '@parley/contract/values';
import type { ApiClient } from './client.js';

// The LinkedIn assistant's calls (spec §2 /automation/*, §7 Automations): a module of its own
// (`@parley/api-client/linkedin`) like images.ts, so that only the LinkedIn pages load it.

type RouteName = keyof typeof ROUTES;
type Input = {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
};

/** One JSON call by its route: the `data` of the answer. */
async function json<T>(client: ApiClient, name: RouteName, input: Input = {}): Promise<T> {
  const route = ROUTES[name];
  let path: string = route.path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = input.params?.[key];
    if (!value) throw new TypeError(`${key} is missing for ${route.path}`);
    return encodeURIComponent(value).replace(/\./g, '%2E');
  });
  if (input.query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    if (qs) path += `?${qs}`;
  }
  const hasBody = input.body !== undefined;
  const { body } = await client.send(path, {
    method: route.method,
    headers: hasBody ? { 'content-type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(input.body) : undefined,
    signal: input.signal,
  });
  return body?.data as T;
}

export type { CustomPrompt };
export type KeywordInput = { keyword: string; avoid?: string[]; include?: string[]; active?: boolean };
export type ProfileInput = { url: string; name?: string; active?: boolean };
/** `notes`: what the file held but could not be used (older servers send none). */
export type StatsImportResult = {
  imported: number;
  days: number;
  notes?: (typeof STATS_IMPORT_NOTES)[number][];
};
export type PostIdeaInput = { idea: string; language?: string; tone?: string };

export const linkedinApi = {
  connection: (client: ApiClient, signal?: AbortSignal) =>
    json<LinkedinConnection>(client, 'linkedinConnection', { signal }),
  /** The address of LinkedIn's consent page to send the browser to. */
  connect: (client: ApiClient) => json<{ url: string }>(client, 'linkedinConnect'),
  callback: (client: ApiClient, code: string, state: string) =>
    json<LinkedinConnection>(client, 'linkedinCallback', { body: { code, state } }),
  logout: (client: ApiClient) => json<unknown>(client, 'linkedinLogout'),

  settings: (client: ApiClient, signal?: AbortSignal) => json<LinkedinSettings>(client, 'linkedinSettings', { signal }),
  updateSettings: (client: ApiClient, change: Partial<LinkedinSettings>) =>
    json<LinkedinSettings>(client, 'updateLinkedinSettings', { body: change }),

  keywords: (client: ApiClient, signal?: AbortSignal) =>
    json<{ keywords: Keyword[] }>(client, 'linkedinKeywords', { signal }).then((d) => d?.keywords ?? []),
  addKeyword: (client: ApiClient, input: KeywordInput) => json<Keyword>(client, 'addLinkedinKeyword', { body: input }),
  updateKeyword: (client: ApiClient, id: string, input: Partial<KeywordInput>) =>
    json<Keyword>(client, 'updateLinkedinKeyword', { params: { id }, body: input }),
  deleteKeyword: (client: ApiClient, id: string) => json<unknown>(client, 'deleteLinkedinKeyword', { params: { id } }),

  profiles: (client: ApiClient, signal?: AbortSignal) =>
    json<{ profiles: FollowedProfile[] }>(client, 'linkedinProfiles', { signal }).then((d) => d?.profiles ?? []),
  addProfile: (client: ApiClient, input: ProfileInput) =>
    json<FollowedProfile>(client, 'addLinkedinProfile', { body: input }),
  updateProfile: (client: ApiClient, id: string, input: Partial<ProfileInput>) =>
    json<FollowedProfile>(client, 'updateLinkedinProfile', { params: { id }, body: input }),
  deleteProfile: (client: ApiClient, id: string) => json<unknown>(client, 'deleteLinkedinProfile', { params: { id } }),

  drafts: (client: ApiClient, status?: DraftStatus, signal?: AbortSignal) =>
    json<{ drafts: Draft[] }>(client, 'linkedinDrafts', { query: { status }, signal }).then((d) => d?.drafts ?? []),
  updateDraft: (client: ApiClient, id: string, change: { text?: string; status?: DraftStatus }) =>
    json<Draft>(client, 'updateLinkedinDraft', { params: { id }, body: change }),

  /** A post written by the AI from an idea (not saved). */
  writePost: (client: ApiClient, input: PostIdeaInput) =>
    json<{ text: string }>(client, 'linkedinPostIdea', { body: input }),
  addPost: (client: ApiClient, input: PostInput) => json<Automation>(client, 'addLinkedinPost', { body: input }),
  updatePost: (client: ApiClient, id: string, input: PostInput) =>
    json<Automation>(client, 'updateLinkedinPost', { params: { id }, body: input }),

  automations: (client: ApiClient, signal?: AbortSignal) =>
    json<{ automations: Automation[] }>(client, 'automations', { signal }).then((d) => d?.automations ?? []),
  updateAutomationStatus: (client: ApiClient, automationId: string, automationStatus: AutomationStatus) =>
    json<Automation>(client, 'updateAutomationStatus', { query: { automationId, automationStatus } }),
  disableDailyRun: (client: ApiClient, automationId: string) =>
    json<Automation>(client, 'disableDailyRunAutomation', { query: { automationId } }),
  deleteAutomation: (client: ApiClient, automationId: string) =>
    json<unknown>(client, 'deleteAutomation', { query: { automationId } }),

  stats: (client: ApiClient, days?: number, signal?: AbortSignal) =>
    json<LinkedinStats>(client, 'linkedinStats', { query: { days }, signal }),
  /** LinkedIn's analytics export (CSV or XLSX), sent as the multipart field `file`. */
  importStats: async (client: ApiClient, file: Blob, name: string): Promise<StatsImportResult> => {
    const form = new FormData();
    form.append('file', file, name);
    const { body } = await client.send(STREAM_PATHS.linkedinStatsImport, { method: 'POST', body: form });
    return body?.data as StatsImportResult;
  },
};
