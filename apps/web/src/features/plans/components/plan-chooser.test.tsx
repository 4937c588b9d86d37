import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { makeCurrentPlan, makePaymentPlans, subscribed } from '../test-fixtures';

/** The first render of a file loads the route's code on demand. */
const slow = { timeout: 10_000 };
// Intl puts non-breaking spaces in some prices; the tests read them as plain spaces.
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const PLANS = 'GET /api/payment/plans';
const CURRENT = 'GET /api/payment/current-plan';
type Handlers = Parameters<typeof mockApi>[0];

function signedIn(handlers: Handlers, language: 'en' | 'fr' = 'en') {
  localStorage.setItem('token', 'tok');
  return mockApi({ 'GET /api/user/profile': ok(makeProfile({ language })), ...handlers });
}

const card = (name: string) => screen.getByRole('group', { name });
const heading = () => screen.findByRole('heading', { level: 1, name: 'Choose your plan' }, slow);
const asked = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls
    .map(([url, init]) => ({ url: new URL(String(url), 'http://localhost'), init: init as RequestInit }))
    .filter(({ url }) => url.pathname === path);

describe('the plan chooser', { timeout: 20_000 }, () => {
  it('covers the screen while the plans load, then shows a card per plan, monthly', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = signedIn({ [PLANS]: ok(makePaymentPlans()), [CURRENT]: ok(makeCurrentPlan()) });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/payment/plans')) await held;
      return answer(input, init);
    });
    renderApp('/subscription');
    await waitFor(() => expect(asked(fetchMock, '/api/payment/plans')).toHaveLength(1), slow);
    const overlay = screen.getAllByRole('status').find((el) => el.className.includes('fixed inset-0'));
    expect(overlay).toHaveTextContent('Loading…');
    expect(screen.queryByRole('heading', { name: 'Choose your plan' })).not.toBeInTheDocument();
    release();

    await heading();
    expect(screen.getByText('You are on the Free plan.')).toBeInTheDocument();
    expect(plain(card('Pro').textContent)).toContain('$15/ month');
    expect(plain(card('Team').textContent)).toContain('$20per seat / month');
    expect(card('Pro')).toHaveTextContent('No daily limit on replies, comments and summaries');
    expect(card('Own keys')).toHaveTextContent('Use your own API keys');
    expect(within(card('Pro')).getByText('Basic model credits').nextSibling).toHaveTextContent('2,000 a month');
    expect(within(card('Pro')).getByRole('button', { name: 'Choose Pro' })).toBeEnabled();
    expect(screen.getByText('Save up to 50%')).toBeInTheDocument();
    // No trial when the server does not offer one to this person.
    expect(screen.queryByRole('button', { name: /free trial/ })).not.toBeInTheDocument();
  });

  it('switches to yearly prices and sends Choose to the checkout with the period, seats and promo code', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({
      [PLANS]: ok(makePaymentPlans()),
      [CURRENT]: ok(makeCurrentPlan()),
      'GET /api/payment/promo-code': (url) =>
        url.searchParams.get('code') === 'WELCOME20'
          ? ok({
              code: 'WELCOME20',
              percentOff: 20,
              amountOff: null,
              currency: null,
              duration: 'forever',
              durationInMonths: null,
            })
          : {
              status: 400,
              body: {
                status: 400,
                code: 'PROMO_CODE_INVALID',
                message: 'This promo code is not valid, has expired or has been used up. No discount was applied.',
              },
            },
    });
    const { router } = renderApp('/subscription');
    await heading();
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(plain(card('Pro').textContent)).toContain('$99/ year');
    expect(card('Pro')).toHaveTextContent('$8.25 a month, billed yearly');

    // A code that gives nothing says why, in the person's language, and is not used.
    const promo = screen.getByRole('textbox', { name: 'Promo code' });
    await user.type(promo, 'NOPE');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/This promo code is not valid/)).toBeInTheDocument();
    await user.clear(promo);
    await user.type(promo, 'WELCOME20');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('WELCOME20: 20% off every payment')).toBeInTheDocument();
    expect(card('Pro')).toHaveTextContent('With WELCOME20: $79.20 each time');
    expect(asked(fetchMock, '/api/payment/promo-code').at(-1)?.url.searchParams.get('planDuration')).toBe('year');

    await user.click(screen.getByRole('button', { name: 'Choose Pro' }));
    expect(router.state.location.pathname).toBe('/payment-call');
    expect(router.state.location.search).toBe('?plan=pro&planDuration=year&promoCode=WELCOME20');
  });

  it('prices Team per seat: the seats field (1 to 500) sets the total and the checkout quantity', async () => {
    const user = userEvent.setup();
    signedIn({ [PLANS]: ok(makePaymentPlans()), [CURRENT]: ok(makeCurrentPlan()) });
    const { router } = renderApp('/subscription');
    await heading();
    const seats = within(card('Team')).getByRole('spinbutton', { name: 'Seats' });
    await user.clear(seats);
    await user.type(seats, '3');
    expect(plain(card('Team').textContent)).toContain('$60 a month for 3 seats');
    expect(within(card('Team')).getByText('Daily credits').nextSibling).toHaveTextContent('150 a day');
    await user.clear(seats);
    await user.type(seats, '501');
    expect(seats).toHaveAttribute('aria-invalid', 'true');
    // Out of range: nothing is priced or bought for the count typed before (50) while the field says 501.
    expect(plain(card('Team').textContent)).not.toMatch(/for \d+ seats/);
    expect(within(card('Team')).getByRole('button', { name: 'Choose Team' })).toBeDisabled();
    // Leaving the field makes it the largest count.
    await user.tab();
    expect(seats).toHaveValue(500);
    expect(seats).not.toHaveAttribute('aria-invalid');
    expect(plain(card('Team').textContent)).toContain('for 500 seats');
    // Not a count: the last valid one comes back.
    await user.clear(seats);
    await user.type(seats, '0');
    await user.tab();
    expect(seats).toHaveValue(500);
    await user.clear(seats);
    await user.type(seats, '4');
    await user.click(within(card('Team')).getByRole('button', { name: 'Choose Team' }));
    expect(router.state.location.search).toBe('?plan=team&planDuration=month&quantity=4');
  });

  it('offers the free trial when the server does', async () => {
    const user = userEvent.setup();
    signedIn({ [PLANS]: ok(makePaymentPlans()), [CURRENT]: ok(makeCurrentPlan({ trialAvailable: true })) });
    const { router } = renderApp('/subscription');
    await heading();
    await user.click(within(card('Plus')).getByRole('button', { name: 'Start free trial (7 days)' }));
    expect(router.state.location.pathname).toBe('/payment-call');
    expect(router.state.location.search).toBe('?plan=plus&planDuration=month&trial=1');
  });

  it('without payments on the server: says so, still shows the plans, and every button is off', async () => {
    signedIn({
      [PLANS]: ok(makePaymentPlans({ paymentsEnabled: false, trialDays: null, studentPricing: false })),
      [CURRENT]: ok(makeCurrentPlan({ paymentsEnabled: false, actions: [] })),
    });
    renderApp('/subscription');
    await heading();
    expect(screen.getByText('Payments are not set up on this server')).toBeInTheDocument();
    expect(screen.getByText(/Ask the administrator of this server/)).toBeInTheDocument();
    for (const name of ['Pro', 'Plus', 'Team', 'Own keys'])
      expect(within(card(name)).getByRole('button', { name: `Choose ${name}` })).toBeDisabled();
    expect(screen.queryByRole('textbox', { name: 'Promo code' })).not.toBeInTheDocument();
  });

  it('with a subscription: Current on its plan, Upgrade after a confirmation that prorations apply', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({
      [PLANS]: ok(makePaymentPlans()),
      [CURRENT]: ok(subscribed({ plan: 'pro', duration: 'month' })),
      'GET /api/payment/update-subscription': ok(subscribed({ plan: 'plus', duration: 'month' })),
    });
    renderApp('/subscription');
    await heading();
    expect(within(card('Pro')).getByRole('button', { name: 'Pro: your current plan' })).toBeDisabled();
    expect(within(card('Pro')).getByRole('button', { name: 'Pro: your current plan' })).toHaveTextContent('Current');
    expect(within(card('Own keys')).getByRole('button', { name: 'Change to Own keys' })).toBeEnabled();
    // A subscriber changes plans; codes are for new subscriptions.
    expect(screen.queryByRole('textbox', { name: 'Promo code' })).not.toBeInTheDocument();

    await user.click(within(card('Plus')).getByRole('button', { name: 'Upgrade to Plus' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Change to Plus, Monthly?' });
    expect(dialog).toHaveTextContent('The new price is $25 / month.');
    expect(dialog).toHaveTextContent('the difference for the rest of this period is charged now');
    // Going back changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep my plan' }));
    expect(asked(fetchMock, '/api/payment/update-subscription')).toHaveLength(0);

    await user.click(within(card('Plus')).getByRole('button', { name: 'Upgrade to Plus' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Change plan' }));
    expect(await screen.findByText('Your subscription is now on Plus.')).toBeInTheDocument();
    const call = asked(fetchMock, '/api/payment/update-subscription')[0]!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ plan: 'plus', planDuration: 'month', quantity: '1' });
    expect(await within(card('Plus')).findByRole('button', { name: 'Plus: your current plan' })).toBeDisabled();
  });

  it('student pricing: verifies an address by mail, then a switch turns the student prices on', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({
      [PLANS]: ok(makePaymentPlans()),
      [CURRENT]: ok(makeCurrentPlan()),
      'POST /api/payment/student': ok(null),
    });
    renderApp('/subscription');
    await heading();
    await user.type(screen.getByLabelText('Student email address'), 'ada@uni.example.edu');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(/We sent a link to ada@uni.example.edu/)).toBeInTheDocument();
    expect(JSON.parse(String(asked(fetchMock, '/api/payment/student')[0]!.init.body))).toEqual({
      email: 'ada@uni.example.edu',
    });
  });

  it('the mailed link confirms the address once; student prices are then on, and go to the checkout', async () => {
    const user = userEvent.setup();
    const token = 'a'.repeat(32);
    const fetchMock = signedIn({
      [PLANS]: ok(makePaymentPlans()),
      [CURRENT]: ok(makeCurrentPlan()),
      'POST /api/payment/student/confirm': ok(makeCurrentPlan({ studentEmail: 'ada@uni.example.edu' })),
    });
    const { router } = renderApp(`/subscription?studentToken=${token}`);
    await heading();
    expect(await screen.findByText('Verified student address: ada@uni.example.edu')).toBeInTheDocument();
    expect(asked(fetchMock, '/api/payment/student/confirm')).toHaveLength(1);
    expect(JSON.parse(String(asked(fetchMock, '/api/payment/student/confirm')[0]!.init.body))).toEqual({ token });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    const toggle = screen.getByRole('switch', { name: 'Student price' });
    expect(toggle).toBeChecked();
    expect(plain(card('Pro').textContent)).toContain('Regular price: $15$7.50/ month');
    await user.click(within(card('Pro')).getByRole('button', { name: 'Choose Pro' }));
    expect(router.state.location.search).toBe('?plan=pro&planDuration=month&student=1');
  });

  it('in French: prices, periods and labels are French', async () => {
    signedIn({ [PLANS]: ok(makePaymentPlans()), [CURRENT]: ok(makeCurrentPlan()) }, 'fr');
    renderApp('/subscription');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choisissez votre offre' }, slow)).toBeInTheDocument();
    expect(plain(card('Pro').textContent)).toContain('15 $US/ mois');
    expect(screen.getByText('Jusqu’à 50 % d’économie')).toBeInTheDocument();
    expect(within(card('Équipe')).getByRole('button', { name: 'Choisir Équipe' })).toBeEnabled();
  });
});
