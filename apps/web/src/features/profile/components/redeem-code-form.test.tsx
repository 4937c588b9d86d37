import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getI18n } from '../../../lib/i18n';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

// Pages load on demand; on a busy machine the first one can take a few seconds.
configure({ asyncUtilTimeout: 8000 });

const change = {
  planBefore: 'free',
  planAfter: 'appDeal',
  creditsBefore: { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 },
  creditsAfter: { dailyCredit: 20, basicCredit: 1000, advanceCredit: 200, extraAdvanceCredit: 50 },
};

describe('redeem a code on the profile', { timeout: 30_000 }, () => {
  it('checks the code before sending, then shows what changed', async () => {
    localStorage.setItem('token', 'tok');
    const user = userEvent.setup();
    const upgraded = makeProfile({ appDeal: true, lifetimeUser: true, credits: change.creditsAfter });
    const fetchMock = mockApi({
      'GET /api/user/profile': ok(makeProfile()),
      'POST /api/user/upgradeToAppsumo': ok({ user: upgraded, change }, 'Upgraded'),
    });
    renderApp('/profile');
    const field = await screen.findByLabelText('Licence code');
    await user.type(field, 'nope');
    await user.click(screen.getByRole('button', { name: 'Redeem code' }));
    expect(await screen.findByText(/Enter the licence code you received/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('upgradeToAppsumo'))).toBe(false);

    await user.clear(field);
    await user.type(field, ' parley-7k3m-q9xd-2hrt ');
    await user.click(screen.getByRole('button', { name: 'Redeem code' }));
    const summary = await screen.findByRole('region', { name: 'Your account has been upgraded' });
    expect(within(summary).getByText('Free → Lifetime deal')).toBeInTheDocument();
    expect(within(summary).getByText(/30 → 1,000/)).toBeInTheDocument();
    expect(within(summary).getByText('+970')).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([url]) => String(url).includes('upgradeToAppsumo'));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ code: 'PARLEY-7K3M-Q9XD-2HRT' });
  });

  it('shows the server message for a used code, in the reader’s language', async () => {
    localStorage.setItem('token', 'tok');
    await getI18n().changeLanguage('fr');
    const user = userEvent.setup();
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ language: 'fr' })),
      'POST /api/user/upgradeToAppsumo': {
        status: 400,
        body: { status: 400, code: 'INVALID_LICENCE_CODE', message: "Ce code de licence n'est pas valide." },
      },
    });
    renderApp('/profile');
    await user.type(await screen.findByLabelText('Code de licence'), 'PARLEY-AAAA-BBBB-CCCC');
    await user.click(screen.getByRole('button', { name: 'Utiliser le code' }));
    expect(await screen.findByText("Ce code de licence n'est pas valide.")).toBeInTheDocument();
  });

  it('an account with a licence sees it is active, not the form', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile({ appDeal: true })) });
    renderApp('/profile');
    expect(await screen.findByText('Your lifetime licence is active on this account.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Licence code')).not.toBeInTheDocument();
  });
});
