import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { makeCurrentPlan, makePaymentPlans, subscribed } from '../test-fixtures';
import { CONFIRM_WAIT_MS } from './payment-confirmation';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];

function signedIn(handlers: Handlers) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(makeProfile()),
    'GET /api/payment/plans': ok(makePaymentPlans()),
    ...handlers,
  });
}
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);

describe('/paymentSuccess', { timeout: 20_000 }, () => {
  it('has the server check the checkout, then says which plan it is and what it gives', async () => {
    const fetchMock = signedIn({
      'POST /api/payment/confirm': ok(subscribed({ plan: 'pro', duration: 'year' })),
    });
    renderApp('/paymentSuccess?session_id=cs_test_abc123');
    expect(await screen.findByRole('heading', { name: "You're on Pro" }, slow)).toBeInTheDocument();
    expect(screen.getByText(/^Yearly · renews on December 1, 2026$/)).toBeInTheDocument();
    expect(screen.getByText('Basic model credits').nextSibling).toHaveTextContent('2,000 a month');
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/home');
    const [, init] = calls(fetchMock, '/api/payment/confirm')[0]!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ sessionId: 'cs_test_abc123' });
  }, 15_000);

  it('while the payment is still on its way, says so and asks again every second until it shows', async () => {
    let reads = 0;
    const fetchMock = signedIn({
      'POST /api/payment/confirm': ok(makeCurrentPlan()),
      'GET /api/payment/current-plan': () => {
        reads += 1;
        return ok(reads >= 2 ? subscribed({ plan: 'plus' }) : makeCurrentPlan());
      },
    });
    renderApp('/paymentSuccess?session_id=cs_test_later');
    expect(await screen.findByText('Confirming your payment…', undefined, slow)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: "You're on Plus" }, { timeout: 5000 })).toBeInTheDocument();
    expect(calls(fetchMock, '/api/payment/current-plan').length).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('a checkout that is never paid: after 30 s of asking, no payment was found', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = signedIn({
        'POST /api/payment/confirm': ok(makeCurrentPlan()),
        'GET /api/payment/current-plan': ok(makeCurrentPlan()),
      });
      renderApp('/paymentSuccess?session_id=cs_test_unpaid');
      expect(await screen.findByText('Confirming your payment…', undefined, slow)).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(CONFIRM_WAIT_MS - 2000);
      expect(screen.getByText('Confirming your payment…')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(3000);
      expect(await screen.findByRole('heading', { name: 'No payment was found' })).toBeInTheDocument();
      expect(calls(fetchMock, '/api/payment/current-plan').length).toBeGreaterThanOrEqual(20);
      expect(screen.queryByText(/You're on/)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);

  it('a forged or foreign checkout: no payment was found, and nothing is shown as granted', async () => {
    signedIn({
      'POST /api/payment/confirm': {
        status: 404,
        body: { status: 404, code: 'CHECKOUT_NOT_FOUND', message: 'This checkout could not be found.' },
      },
    });
    renderApp('/paymentSuccess?session_id=cs_test_forged');
    expect(await screen.findByRole('heading', { name: 'No payment was found' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This checkout could not be found.');
    expect(screen.queryByText(/You're on/)).not.toBeInTheDocument();
    expect(screen.queryByText('Basic model credits')).not.toBeInTheDocument();
  });

  it('an address without a checkout id asks the server nothing', async () => {
    const fetchMock = signedIn({});
    renderApp('/paymentSuccess?session_id=../../etc');
    expect(await screen.findByRole('heading', { name: 'No payment was found' }, slow)).toBeInTheDocument();
    await waitFor(() => expect(calls(fetchMock, '/api/payment/confirm')).toHaveLength(0));
  });
});
