import type { Automation, Draft, FollowedProfile, Keyword, LinkedinConnection, LinkedinStats } from '@parley/contract';
import { DEFAULT_LINKEDIN_SETTINGS, LINKEDIN_METRICS, type LinkedinSettings } from '@parley/contract';
import { makeProfile, mockApi, ok } from '../../test/render-app';

export const IDS = {
  keyword: '5b1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01',
  profile: '5b1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b02',
  draft: '5b1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b03',
  post: '5b1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b04',
  comment: '5b1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b05',
} as const;

const AT = '2026-05-01T10:00:00.000Z';

export const connected = (overrides: Partial<LinkedinConnection> = {}): LinkedinConnection => ({
  configured: true,
  state: 'connected',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  picture: null,
  expiresAt: '2026-07-01T10:00:00.000Z',
  canPost: true,
  ...overrides,
});

export const notConnected = (overrides: Partial<LinkedinConnection> = {}): LinkedinConnection =>
  connected({ state: 'none', name: null, email: null, expiresAt: null, canPost: false, ...overrides });

export const makeKeyword = (overrides: Partial<Keyword> = {}): Keyword => ({
  id: IDS.keyword,
  keyword: 'product management',
  avoid: ['hiring'],
  include: ['roadmap', 'discovery'],
  active: true,
  createdAt: AT,
  lastRunAt: null,
  draftsToday: 2,
  due: false,
  ...overrides,
});

export const makeProfileFollow = (overrides: Partial<FollowedProfile> = {}): FollowedProfile => ({
  id: IDS.profile,
  url: 'https://www.linkedin.com/in/grace-hopper/',
  name: 'Grace Hopper',
  active: true,
  createdAt: AT,
  lastRunAt: null,
  draftsToday: 0,
  due: false,
  ...overrides,
});

export const makeDraft = (overrides: Partial<Draft> = {}): Draft => ({
  id: IDS.draft,
  postUrn: 'urn:li:activity:7000000000000000001',
  postUrl: 'https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000001/',
  authorName: 'Grace Hopper',
  postExcerpt: 'We shipped our roadmap discovery process today…',
  keyword: 'product management',
  profileUrl: null,
  text: 'Congratulations on the launch: discovery first is the way.',
  status: 'pending',
  flags: [],
  createdAt: AT,
  ...overrides,
});

export const makeAutomation = (overrides: Partial<Automation> = {}): Automation => ({
  automationId: IDS.post,
  kind: 'post',
  status: 'Pending',
  dailyRun: false,
  text: 'Three things I learned shipping a roadmap.',
  keyword: null,
  runAt: '2026-06-01T08:30:00.000Z',
  timezone: 'Europe/Paris',
  repeat: 'none',
  visibility: 'PUBLIC',
  postUrn: null,
  postUrl: null,
  publishedAt: null,
  error: null,
  createdAt: AT,
  ...overrides,
});

export function makeStats(values: Partial<Record<(typeof LINKEDIN_METRICS)[number], number[]>> = {}): LinkedinStats {
  const series = {} as LinkedinStats['series'];
  const latest = {} as LinkedinStats['latest'];
  for (const metric of LINKEDIN_METRICS) {
    const list = values[metric] ?? [];
    series[metric] = list.map((value, i) => ({
      day: `2026-04-${String(i + 1).padStart(2, '0')}`,
      value,
      source: 'page',
    }));
    const last = series[metric].at(-1);
    latest[metric] = last ? { day: last.day, value: last.value } : null;
  }
  return { series, latest };
}

export type Handlers = Parameters<typeof mockApi>[0];

/** A signed-in person (Ada) and the LinkedIn calls answered with the given data. */
export function signedIn(
  data: {
    connection?: LinkedinConnection;
    settings?: Partial<LinkedinSettings>;
    keywords?: Keyword[];
    profiles?: FollowedProfile[];
    drafts?: Draft[];
    automations?: Automation[];
    stats?: LinkedinStats;
    /** The interface language stored on the profile (applied on sign-in). */
    language?: 'en' | 'es' | 'fr';
  } = {},
  handlers: Handlers = {},
) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(
      makeProfile({ name: 'Ada', fullName: 'Ada Lovelace', language: data.language ?? 'en' }),
    ),
    'GET /api/linkedin/connection': ok(data.connection ?? connected()),
    'GET /api/linkedin/settings': ok({ ...DEFAULT_LINKEDIN_SETTINGS, ...data.settings }),
    'GET /api/linkedin/keywords': ok({ keywords: data.keywords ?? [] }),
    'GET /api/linkedin/profiles': ok({ profiles: data.profiles ?? [] }),
    'GET /api/linkedin/drafts': ok({ drafts: data.drafts ?? [] }),
    'GET /api/mongo/automation/getAllAutomations': ok({ automations: data.automations ?? [] }),
    'GET /api/linkedin/stats': ok(data.stats ?? makeStats()),
    ...handlers,
  });
}

/** The JSON body of a call made with the mock. */
export const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

/** The calls made to "METHOD /path". */
export function calls(fetchMock: ReturnType<typeof mockApi>, key: string) {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = new URL(String(input), 'http://localhost');
    return `${(init as RequestInit | undefined)?.method ?? 'GET'} ${url.pathname}` === key;
  }) as unknown as [string, RequestInit][];
}

export const refused = (status: number, code: string, message: string) => ({
  status,
  body: { status, code, message },
});
