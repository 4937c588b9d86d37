import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { Profile } from '@parley/contract';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import { getI18n } from '../lib/i18n';

/** Renders the real route tree at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders i18n={getI18n()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}

type Answer = { status?: number; body: unknown } | undefined;
type Handler = (url: URL, init: RequestInit) => Answer | Promise<Answer>;

/** Replaces fetch with handlers keyed by "METHOD /path"; unknown calls answer 404. Returns the mock for assertions. */
export function mockApi(handlers: Record<string, Handler | { status?: number; body: unknown }>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const handler = handlers[key];
    const answer = typeof handler === 'function' ? await handler(url, init) : handler;
    const status = answer?.status ?? (answer ? 200 : 404);
    const body = answer?.body ?? { status: 404, code: 'NOT_FOUND', message: 'Not found' };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const ok = (data: unknown, message = 'OK') => ({ body: { status: 200, message, data } });

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'u1',
    profileId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    fullName: 'Ada Lovelace',
    role: 'user',
    timezone: 'Europe/London',
    language: 'en',
    basicUse: 4,
    advanceUse: 2,
    extraAdvanceUse: 1,
    monthlyUse: 7,
    credits: { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 },
    joinDate: '2025-03-14T12:00:00.000Z',
    loginCount: 5,
    lifetimeUser: false,
    multipleLogin: false,
    verified: true,
    earlyBird: false,
    appDeal: false,
    hasPassword: true,
    googleLinked: false,
    ...overrides,
  };
}
