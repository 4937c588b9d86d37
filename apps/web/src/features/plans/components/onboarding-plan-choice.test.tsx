import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { makePaymentPlans } from '../test-fixtures';

const slow = { timeout: 10_000 };

function signedIn(plans: ReturnType<typeof makePaymentPlans>) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
    'GET /api/user/setting': ok({}),
    'GET /api/payment/plans': ok(plans),
  });
}

describe('onboarding step 3, the payment step', { timeout: 20_000 }, () => {
  it('shows the free plan, then the paid plans, each a link to its checkout, monthly or yearly; Skip goes home', async () => {
    const user = userEvent.setup();
    signedIn(makePaymentPlans());
    const { router } = renderApp('/on-boarding/3');
    const plans = await screen.findByRole('region', { name: 'Or go further with a paid plan' }, slow);
    expect(screen.getByRole('heading', { level: 1, name: 'Your plan' })).toBeInTheDocument();
    expect(within(plans).getByRole('link', { name: 'Pro, $15 / month' })).toHaveAttribute(
      'href',
      '/payment-call?plan=pro&planDuration=month',
    );
    await user.click(within(plans).getByRole('radio', { name: 'Yearly' }));
    expect(within(plans).getByRole('link', { name: 'Team, $149 per seat / year' })).toHaveAttribute(
      'href',
      '/payment-call?plan=team&planDuration=year',
    );
    expect(within(plans).getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/subscription');
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(router.state.location.pathname).toBe('/home');
  });

  it('on a server without payments, shows the free plan only', async () => {
    signedIn(makePaymentPlans({ paymentsEnabled: false }));
    renderApp('/on-boarding/3');
    expect(
      await screen.findByText('No card needed: the free plan is yours for as long as you like.', undefined, slow),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading plans' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Or go further with a paid plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Pro/ })).not.toBeInTheDocument();
  });
});
