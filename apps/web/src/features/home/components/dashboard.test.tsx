import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Usage } from '@parley/contract';
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

describe('the dashboard', () => {
  it('shows credits as they are now, when the daily ones come back, 30 days of use, and free uses left', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()), 'GET /api/user/usage': ok(usage()) });
    renderApp('/home');
    expect(await screen.findByText(/^Back to 3 at midnight · Next renewal:/)).toBeInTheDocument();
    expect(screen.getByText('Daily credits').nextSibling).toHaveTextContent('1');
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

  it('on a plan without the free tier limit, shows no such section; in French, numbers and days in French', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ language: 'fr' })),
      'GET /api/user/usage': ok(usage({ plan: 'appDeal', gates: [] })),
    });
    renderApp('/home');
    expect(await screen.findByText(/^Reviennent à 20 à minuit · Prochain renouvellement :/)).toBeInTheDocument();
    expect(screen.queryByText('Offre gratuite : utilisations restantes aujourd’hui')).not.toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: '24 nov. 2026' })).toBeInTheDocument();
  });
});
