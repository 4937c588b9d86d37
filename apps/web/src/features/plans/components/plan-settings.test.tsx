import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { browser } from '../api/plans-api';
import { makeCurrentPlan, makePaymentPlans, subscribed } from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];

function signedIn(handlers: Handlers, language: 'en' | 'es' = 'en') {
  localStorage.setItem('token', 'tok');
  return mockApi({ 'GET /api/user/profile': ok(makeProfile({ language })), ...handlers });
}
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);
const value = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling;

describe('/setting/plan', { timeout: 20_000 }, () => {
  it('shows the plan and its subscription, dated in the person’s language', async () => {
    signedIn({
      'GET /api/payment/current-plan': ok(
        subscribed({ plan: 'team', duration: 'year', quantity: 4, promoCode: 'WELCOME20', student: true }),
      ),
    });
    renderApp('/setting/plan');
    expect(await screen.findByRole('heading', { level: 2, name: 'Team' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
    expect(value('Subscription')).toHaveTextContent('Team · Yearly');
    expect(value('Status')).toHaveTextContent('Active');
    expect(value('Valid from')).toHaveTextContent('November 1, 2026');
    expect(value('Renews on')).toHaveTextContent('December 1, 2026');
    expect(value('Days remaining')).toHaveTextContent('6');
    expect(value('Seats')).toHaveTextContent('4');
    expect(value('Promo code')).toHaveTextContent('WELCOME20');
    expect(value('Student price')).toHaveTextContent('Yes');
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/subscription');
    expect(screen.queryByRole('button', { name: 'Reactivate Plan' })).not.toBeInTheDocument();
  });

  it('Cancel Subscription asks first, cancels at the period’s end, then offers Reactivate Plan', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({
      'GET /api/payment/current-plan': ok(subscribed({ plan: 'pro' })),
      'POST /api/payment/cancel-subscription': ok(subscribed({ plan: 'pro', cancelAtPeriodEnd: true })),
      'POST /api/payment/reactivate-subscription': ok(subscribed({ plan: 'pro' })),
    });
    renderApp('/setting/plan');
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }, slow));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog).toHaveTextContent('You keep Pro until December 1, 2026 and are not charged again.');
    await user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    expect(calls(fetchMock, '/api/payment/cancel-subscription')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel subscription' }));
    expect(
      await screen.findByText(/it ends on December 1, 2026, then you return to the Free plan/),
    ).toBeInTheDocument();
    expect(value('Ends on')).toHaveTextContent('December 1, 2026');

    await user.click(screen.getByRole('button', { name: 'Reactivate Plan' }));
    const again = screen.getByRole('alertdialog', { name: 'Reactivate your subscription?' });
    await user.click(within(again).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByRole('button', { name: 'Cancel Subscription' })).toBeInTheDocument();
    expect(calls(fetchMock, '/api/payment/reactivate-subscription')).toHaveLength(1);
  });

  it('Remove Subscription warns that it ends now, then shows the plan it returns to', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({
      'GET /api/payment/current-plan': ok(subscribed({ plan: 'plus' })),
      'POST /api/payment/remove-subscription': ok(
        makeCurrentPlan({ subscription: subscribed({ plan: 'plus', status: 'canceled' }).subscription }),
      ),
    });
    renderApp('/setting/plan');
    await user.click(await screen.findByRole('button', { name: 'Remove Subscription' }, slow));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove your subscription now?' });
    expect(dialog).toHaveTextContent('Plus ends now, not at the end of the period');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove subscription' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Free' })).toBeInTheDocument();
    expect(value('Status')).toHaveTextContent('Ended');
    expect(calls(fetchMock, '/api/payment/remove-subscription')).toHaveLength(1);
  });

  it('Renew Subscription and the invoices open the payment provider’s pages', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    signedIn({
      'GET /api/payment/current-plan': ok(
        makeCurrentPlan({
          subscription: subscribed({ status: 'canceled' }).subscription,
          actions: ['upgrade', 'renew', 'portal'],
        }),
      ),
      'GET /api/payment/renew-subscription': ok({ url: 'https://checkout.example/pay/cs_renew' }),
      'GET /api/payment/portal': ok({ url: 'https://billing.example/portal/bps_1' }),
    });
    const first = renderApp('/setting/plan');
    await user.click(await screen.findByRole('button', { name: 'Renew Subscription' }, slow));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/pay/cs_renew'));
    // Leaving: the other way out waits.
    expect(screen.getByRole('button', { name: 'Invoices and payment methods' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    first.unmount();

    renderApp('/setting/plan');
    await user.click(await screen.findByRole('button', { name: 'Invoices and payment methods' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.example/portal/bps_1'));
  });

  it('without a subscription, and without payments on the server, says both', async () => {
    signedIn({
      'GET /api/payment/current-plan': ok(makeCurrentPlan({ paymentsEnabled: false, actions: [] })),
      'GET /api/payment/plans': ok(makePaymentPlans({ paymentsEnabled: false })),
    });
    renderApp('/setting/plan');
    expect(await screen.findByText('You are on the Free plan, without a subscription.', undefined, slow)).toBeVisible();
    expect(screen.getByText('Payments are not set up on this server')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription');
  });

  it('in Spanish: statuses, dates and actions in Spanish', async () => {
    signedIn({ 'GET /api/payment/current-plan': ok(subscribed({ plan: 'pro', status: 'past_due' })) }, 'es');
    renderApp('/setting/plan');
    expect(await screen.findByRole('button', { name: 'Cancelar suscripción' }, slow)).toBeInTheDocument();
    expect(value('Estado')).toHaveTextContent('Pago atrasado');
    expect(value('Se renueva el')).toHaveTextContent('1 de diciembre de 2026');
  });
});
