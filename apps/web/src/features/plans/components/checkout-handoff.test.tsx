import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { browser } from '../api/plans-api';
import { makeCurrentPlan, makePaymentPlans } from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];

function signedIn(handlers: Handlers) {
  localStorage.setItem('token', 'tok');
  return mockApi({ 'GET /api/user/profile': ok(makeProfile()), ...handlers });
}
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost')).filter((u) => u.pathname === path);

describe('/payment-call', { timeout: 20_000 }, () => {
  it('asks for a checkout with everything chosen, says where it goes, and leaves for it', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const fetchMock = signedIn({ 'GET /api/payment/subscribe': ok({ url: 'https://checkout.example/pay/cs_1' }) });
    renderApp('/payment-call?plan=team&planDuration=year&quantity=3&promoCode=WELCOME20&student=1');
    expect(await screen.findByText('Taking you to the secure checkout…', undefined, slow)).toBeInTheDocument();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/pay/cs_1'));
    const asked = calls(fetchMock, '/api/payment/subscribe');
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      plan: 'team',
      planDuration: 'year',
      quantity: '3',
      promoCode: 'WELCOME20',
      student: '1',
    });
  });

  it('starts the free trial through its own call, with the plan and period only', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const fetchMock = signedIn({ 'GET /api/payment/free-trial': ok({ url: 'https://checkout.example/pay/cs_2' }) });
    renderApp('/payment-call?plan=pro&planDuration=month&trial=1');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/pay/cs_2'), slow);
    expect(calls(fetchMock, '/api/payment/subscribe')).toHaveLength(0);
    expect(Object.fromEntries(calls(fetchMock, '/api/payment/free-trial')[0]!.searchParams)).toEqual({
      plan: 'pro',
      planDuration: 'month',
    });
  });

  it('says why the checkout could not open, in the server’s words, and leads back to the plans', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    signedIn({
      'GET /api/payment/subscribe': {
        status: 400,
        body: { status: 400, code: 'TRIAL_ALREADY_USED', message: 'You have already used your free trial.' },
      },
      'GET /api/payment/plans': ok(makePaymentPlans()),
      'GET /api/payment/current-plan': ok(makeCurrentPlan()),
    });
    const { router } = renderApp('/payment-call?plan=pro&planDuration=month');
    expect(await screen.findByRole('alert', undefined, slow)).toHaveTextContent(
      'You have already used your free trial.',
    );
    expect(assign).not.toHaveBeenCalled();
    await user.click(screen.getByRole('link', { name: 'Back to plans' }));
    expect(router.state.location.pathname).toBe('/subscription');
  });

  it('an address without a plan on sale asks for nothing', async () => {
    const fetchMock = signedIn({});
    renderApp('/payment-call?plan=gold&planDuration=month');
    expect(await screen.findByRole('alert', undefined, slow)).toHaveTextContent(
      'This checkout link does not name a plan on sale.',
    );
    expect(calls(fetchMock, '/api/payment/subscribe')).toHaveLength(0);
  });
});
