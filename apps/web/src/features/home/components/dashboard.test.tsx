import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatSummary, Usage } from '@parley/contract';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

function usage(overrides: Partial<Usage> = {}): Usage {
  const days = Array.from({ length: 30 }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 24 - 29 + i)).toISOString().slice(0, 10),
    basic: i === 29 ? 2 : i === 10 ? 1 : 0,
    advance: i === 29 ? 1 : 0,
    extraAdvance: 0,
  }));
  return {
    plan: 'free',
    dailyAllowance: 3,
    timezone: 'Europe/London',
    today: '2026-11-24',
    credits: { dailyCredit: 1, basicCredit: 30, advanceCredit: 4, extraAdvanceCredit: 0 },
    dailyRenewsAt: '2026-11-25T00:00:00.000Z',
    monthlyRenewsAt: null,
    days,
    totals: { basic: 3, advance: 1, extraAdvance: 0 },
    gates: ['reply', 'comment', 'summary'].map((capability) => ({
      capability,
      used: capability === 'summary' ? 2 : 0,
      limit: 3,
      left: capability === 'summary' ? 1 : 3,
    })),
    ...overrides,
  };
}

const HISTORIES = 'GET /api/mongo/users/chat/histories';

function chat(id: number, title: string, updatedAt: string): ChatSummary {
  return {
    chatHistoryId: `00000000-0000-4000-8000-00000000000${id}`,
    title,
    model: 'GPT_4O_MINI',
    createdAt: updatedAt,
    updatedAt,
  };
}

describe('the dashboard as a place to start', () => {
  it('on a first visit: Welcome, the three ways to begin, and no conversations yet', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({
      'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
      'GET /api/user/usage': ok(usage()),
      [HISTORIES]: ok([]),
    });
    renderApp('/home');
    // The first render of the file loads the route's code: more than the default second on a busy machine.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome to Parley, Ada' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    const start = screen.getByRole('region', { name: 'Start here' });
    expect(within(start).getByRole('link', { name: /^Start a chat/ })).toHaveAttribute('href', '/chat');
    expect(within(start).getByRole('link', { name: /^Install the extension/ })).toHaveAttribute('href', '/install');
    expect(within(start).getByRole('link', { name: /^See plans/ })).toHaveAttribute('href', '/subscription');
    expect(screen.getByText('No conversations yet. Your chats will be listed here.')).toBeInTheDocument();
    // The plans that come without payment, with the current one marked, and the way to the paid ones.
    const plans = screen.getByRole('region', { name: 'Plans' });
    expect(plans).toHaveAttribute('id', 'plans');
    expect(await within(plans).findByText('Current plan')).toBeInTheDocument();
    expect(within(plans).getByTestId('plan-free')).toHaveAttribute('aria-current', 'true');
    expect(within(plans).getByTestId('plan-appDeal')).toHaveTextContent('1,000');
    expect(within(plans).queryByTestId('plan-pro')).not.toBeInTheDocument();
    expect(within(plans).getByRole('link', { name: /^Paid plans/ })).toHaveAttribute('href', '/subscription');
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost'));
    expect(asked.find((u) => u.pathname === '/api/mongo/users/chat/histories')?.searchParams.get('limit')).toBe('5');
  });

  it('once there are conversations: a calmer greeting and the latest ones, each a link, dated per locale', async () => {
    localStorage.setItem('token', 'tok');
    // A day of this year that is not today (today would show the time alone).
    const today = new Date();
    const day = today.getMonth() === 2 && today.getDate() === 5 ? 6 : 5;
    const year = today.getFullYear();
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
      'GET /api/user/usage': ok(usage()),
      [HISTORIES]: ok([
        chat(1, 'Trip to Lisbon', new Date(year, 2, day, 14, 5).toISOString()),
        chat(2, '', '2024-01-09T10:00:00.000Z'),
      ]),
    });
    renderApp('/home');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi Ada, welcome back' })).toBeInTheDocument();
    expect(screen.queryByText(/^Welcome to Parley/)).not.toBeInTheDocument();
    const recent = screen.getByRole('region', { name: 'Recent conversations' });
    const lisbon = within(recent).getByRole('link', { name: /Trip to Lisbon/ });
    expect(lisbon).toHaveAttribute('href', '/chat/00000000-0000-4000-8000-000000000001');
    expect(lisbon).toHaveTextContent(`Mar ${day}, 2:05 PM`);
    expect(within(recent).getByRole('link', { name: /New chat/ })).toHaveTextContent('Jan 9, 2024');
    expect(within(recent).getByRole('link', { name: 'All conversations' })).toHaveAttribute('href', '/chat');
  });

  it('in French, the welcome and the dates are French', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ language: 'fr', loginCount: 7 })),
      'GET /api/user/usage': ok(usage()),
      [HISTORIES]: ok([chat(3, 'Recette', '2024-01-09T10:00:00.000Z')]),
    });
    renderApp('/home');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Bonjour Ada, ravi de vous revoir' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Recette/ })).toHaveTextContent('9 janv. 2024');
    expect(screen.getByRole('link', { name: /^Voir les offres/ })).toBeInTheDocument();
  });
});

describe('the dashboard', () => {
  it('shows credits as they are now, when the daily ones come back, 30 days of use, and free uses left', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile()),
      'GET /api/user/usage': ok(usage()),
      [HISTORIES]: ok([]),
    });
    renderApp('/home');
    expect(await screen.findByText(/^Back to 3 at midnight · Next renewal:/)).toBeInTheDocument();
    const credits = screen.getByRole('region', { name: 'Credits' });
    expect(within(credits).getByText('Daily credits').nextSibling).toHaveTextContent('1');
    expect(screen.getByText('Basic use').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('Last 30 days').nextSibling).toHaveTextContent('4');
    expect(screen.getByTestId('usage-chart')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Credits used per day, by model tier' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByRole('rowheader', { name: 'Nov 24, 2026' }).parentElement).toHaveTextContent(
      'Nov 24, 2026210',
    );
    expect(screen.getByRole('heading', { name: 'Free plan: uses left today' })).toBeInTheDocument();
    expect(screen.getByText('Summaries').nextSibling).toHaveTextContent('1 of 3 left');
  });

  it('on a paid plan, lists it beside the plans that come without payment, named and marked current', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile()),
      'GET /api/user/usage': ok(usage({ plan: 'team', gates: [] })),
      [HISTORIES]: ok([]),
    });
    renderApp('/home');
    const plans = await screen.findByRole('region', { name: 'Plans' });
    const team = await within(plans).findByTestId('plan-team');
    expect(team).toHaveAttribute('aria-current', 'true');
    expect(within(team).getByRole('heading', { name: 'Team' })).toBeInTheDocument();
    expect(team).toHaveTextContent('Credits shown for one seat');
    expect(team).toHaveTextContent('2,500');
    expect(within(plans).getByTestId('plan-free')).not.toHaveAttribute('aria-current');
  });

  it('on a plan without the free tier limit, shows no such section; in French, numbers and days in French', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ language: 'fr' })),
      'GET /api/user/usage': ok(usage({ plan: 'appDeal', dailyAllowance: 20, gates: [] })),
      [HISTORIES]: ok([]),
    });
    renderApp('/home');
    expect(await screen.findByText(/^Reviennent à 20 à minuit · Prochain renouvellement :/)).toBeInTheDocument();
    expect(screen.queryByText('Offre gratuite : utilisations restantes aujourd’hui')).not.toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: '24 nov. 2026' })).toBeInTheDocument();
  });
});
