import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSetLanguage, apiSignUp, exact, openSignedIn, shot, tr, uniqueEmail } from '../support';
import { noSidewaysScroll, setAppearance } from './conversation-helpers';

/** Buying a plan as a person does: the plan chooser, the hosted checkout (Stripe on loopback), back to Parley. */

/** A figure of the dashboard's credits (the plans further down name the same credits). */
const credit = (page: Page, key: string) =>
  page
    .locator('section:not(#plans) dt', { hasText: tr('en', `home:credits.${key}`) })
    .locator('xpath=following-sibling::dd[1]');
const settingsValue = (page: Page, key: string) =>
  page.locator('dt', { hasText: exact(tr('en', `plans:settings.${key}`)) }).locator('xpath=following-sibling::dd[1]');

test('Pro yearly with WELCOME20: checkout, Pay, confirmed, the new allowance at home; then cancel and reactivate', async ({
  page,
}) => {
  const { token } = await apiSignUp(uniqueEmail('plans'));
  await openSignedIn(page, token, '/home');
  await page
    .getByRole('navigation')
    .getByRole('link', { name: tr('en', 'shell:menu.subscription') })
    .click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'plans:chooser.title') })).toBeVisible();
  await expect(page.getByText(tr('en', 'plans:billing.saveUpTo', { percent: '50%' }))).toBeVisible();
  await shot(page, 'chooser-monthly-1280', { fullPage: true });

  await page.getByText(tr('en', 'plans:billing.year'), { exact: true }).click();
  const pro = page.getByRole('group', { name: tr('en', 'plans:names.pro') });
  await expect(pro).toContainText('$99');
  await page.getByRole('textbox', { name: tr('en', 'plans:promo.label') }).fill('WELCOME20');
  await page.getByRole('button', { name: tr('en', 'plans:promo.apply') }).click();
  await expect(page.getByText('WELCOME20: 20% off every payment')).toBeVisible();
  await expect(pro).toContainText('With WELCOME20: $79.20 each time');
  await shot(page, 'chooser-yearly-promo-1280', { fullPage: true });

  await pro.getByRole('button', { name: tr('en', 'plans:actions.choosePlan', { plan: 'Pro' }) }).click();
  // The hosted checkout: Stripe's page (here the loopback one), with the price the server picked and the code.
  await page.waitForURL(new RegExp(`^${process.env.E2E_STRIPE_URL}/pay/cs_`));
  await shot(page, 'stripe-checkout');
  await page.getByRole('button', { name: 'Pay' }).click();

  await page.waitForURL(/\/paymentSuccess\?session_id=cs_/);
  await expect(page.getByRole('heading', { name: tr('en', 'plans:success.title', { plan: 'Pro' }) })).toBeVisible();
  await expect(page.getByText(/^Yearly · renews on /)).toBeVisible();
  await shot(page, 'payment-success-1280');

  await page.getByRole('link', { name: tr('en', 'plans:success.toHome') }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(credit(page, 'dailyCredit')).toHaveText('50');
  await expect(credit(page, 'basicCredit')).toHaveText('2,000');
  await expect(credit(page, 'advanceCredit')).toHaveText('300');
  await expect(page.getByTestId('plan-pro')).toHaveAttribute('aria-current', 'true');
  const plan = await apiGet<{ plan: string; subscription: { duration: string; promoCode: string } }>(
    '/api/payment/current-plan',
    token,
  );
  expect(plan.data.plan).toBe('pro');
  expect(plan.data.subscription).toMatchObject({ duration: 'year', promoCode: 'WELCOME20' });

  // The plan settings: what was bought, then Cancel (at the period's end) and Reactivate, each after a question.
  await page.goto('/setting/plan');
  await expect(page.getByRole('heading', { level: 2, name: 'Pro' })).toBeVisible();
  await expect(settingsValue(page, 'subscription')).toHaveText('Pro · Yearly');
  await expect(settingsValue(page, 'status')).toHaveText(tr('en', 'plans:status.active'));
  await expect(settingsValue(page, 'promoCode')).toHaveText('WELCOME20');
  await shot(page, 'plan-settings-1280');

  await page.getByRole('button', { name: tr('en', 'plans:settings.cancel') }).click();
  const dialog = page.getByRole('alertdialog', { name: tr('en', 'plans:settings.confirm.cancel.title') });
  await expect(dialog).toContainText('You keep Pro until');
  await shot(page, 'plan-cancel-dialog');
  await dialog.getByRole('button', { name: tr('en', 'plans:settings.confirm.cancel.confirm') }).click();
  await expect(page.getByText(/^Your subscription is cancelled: it ends on /)).toBeVisible();
  await expect(settingsValue(page, 'ends')).toBeVisible();
  await shot(page, 'plan-cancelled-1280');

  await page.getByRole('button', { name: tr('en', 'plans:settings.reactivate') }).click();
  await page
    .getByRole('alertdialog', { name: tr('en', 'plans:settings.confirm.reactivate.title') })
    .getByRole('button', { name: tr('en', 'plans:settings.confirm.reactivate.confirm') })
    .click();
  await expect(page.getByRole('button', { name: tr('en', 'plans:settings.cancel') })).toBeVisible();
  await expect(page.getByText(/^Your subscription is cancelled/)).toHaveCount(0);
  const after = await apiGet<{ subscription: { cancelAtPeriodEnd: boolean } }>('/api/payment/current-plan', token);
  expect(after.data.subscription.cancelAtPeriodEnd).toBe(false);

  // The chooser now knows the subscription: Current on Pro yearly, Upgrade to Plus.
  await page.goto('/subscription');
  await page.getByText(tr('en', 'plans:billing.year'), { exact: true }).click();
  await expect(
    page.getByRole('button', { name: tr('en', 'plans:actions.currentPlan', { plan: 'Pro' }) }),
  ).toBeDisabled();
  await expect(
    page.getByRole('button', { name: tr('en', 'plans:actions.upgradePlan', { plan: 'Plus' }) }),
  ).toBeEnabled();
});

test('a forged success address grants nothing', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('plans-forged'));
  await openSignedIn(page, token, '/paymentSuccess?session_id=cs_test_forged123');
  await expect(page.getByRole('heading', { name: tr('en', 'plans:success.notFoundTitle') })).toBeVisible();
  await expect(page.getByText(tr('en', 'plans:success.title', { plan: 'Pro' }))).toHaveCount(0);
  const plan = await apiGet<{ plan: string }>('/api/payment/current-plan', token);
  expect(plan.data.plan).toBe('free');
  await shot(page, 'payment-forged');
});

test('the chooser and the plan settings at 375 px, dark, by keyboard', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('plans-375'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/not-found');
  await setAppearance(page, { theme: 'dark' });
  await openSignedIn(page, token, '/subscription');
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'plans:chooser.title') })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'chooser-375-dark');
  await shot(page, 'chooser-375-dark-full', { fullPage: true });

  // Yearly by keyboard: the billing switch is a pair of radio buttons.
  await page.getByRole('radio', { name: tr('en', 'plans:billing.month') }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: tr('en', 'plans:billing.year') })).toBeChecked();
  const team = page.getByRole('group', { name: tr('en', 'plans:names.team') });
  await team.getByRole('spinbutton', { name: tr('en', 'plans:seats.label') }).fill('3');
  await expect(team).toContainText('a year for 3 seats');
  await team.getByRole('button', { name: tr('en', 'plans:actions.choosePlan', { plan: 'Team' }) }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`^${process.env.E2E_STRIPE_URL}/pay/cs_`));

  await page.goto(`${process.env.E2E_BASE_URL}/setting/plan`);
  await expect(page.getByText(tr('en', 'plans:settings.noSubscription', { plan: 'Free' }))).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'plan-settings-375-dark');
});

test('onboarding step 3 offers the paid plans, in French, at 375 px', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('plans-onboarding'));
  const res = await apiSetLanguage(token, 'fr');
  expect(res.ok).toBe(true);
  await page.setViewportSize({ width: 375, height: 812 });
  await openSignedIn(page, token, '/on-boarding/3');
  const plans = page.getByRole('region', { name: tr('fr', 'plans:onboarding.title') });
  await expect(plans).toBeVisible();
  const pro = plans.getByRole('link', { name: /^Pro, 15\s\$US/ });
  await expect(pro).toHaveAttribute('href', '/payment-call?plan=pro&planDuration=month');
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'onboarding-3-375-fr', { fullPage: true });
  await pro.click();
  await page.waitForURL(new RegExp(`^${process.env.E2E_STRIPE_URL}/pay/cs_`));
});
