import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, linkFromMail, openSignedIn, shot, tr, uniqueEmail } from '../support';
import { noSidewaysScroll } from './conversation-helpers';
import { api, buyTeam } from './organization-helpers';

// Someone without an account is invited to an organization. They open the mail's link signed out, create an
// account from there, confirm their address from a second mail in another tab, log in, go through onboarding, and
// land on the invitation, which they accept. The browser kept it meanwhile (localStorage 'pendingJoin'). In Chromium,
// against the production API, its loopback Stripe and SMTP servers.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);
const base = () => process.env.E2E_BASE_URL!;

const pending = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('pendingJoin') ?? 'null') as { key: string; storedAt: number });

test('a new person: invitation link signed out → create an account → confirm by mail → onboarding → join', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);

  // The owner: a Team plan, an organization, and an invitation to an address that has no account yet.
  const owner = await apiSignUp(uniqueEmail('orgnew-owner'), 'correct horse battery', 'Olga Owner');
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await openSignedIn(ownerPage, owner.token, '/home');
  await buyTeam(ownerPage, owner.token);
  await ownerContext.close();
  const created = await api('POST', '/api/org/create', owner.token, { name: 'Acme Writers' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const email = uniqueEmail('orgnew-nina');
  const invited = await api('POST', '/api/org-admin/invite/users', owner.token, { emails: [email] });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const link = new URL(await linkFromMail(email, '/join-organization'));
  const key = link.searchParams.get('key')!;

  // Nina opens the link signed out: what it is, Log in or Create an account; the browser keeps the invitation.
  const before = Date.now();
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: en('organization:join.title') })).toBeVisible();
  await expect(page).toHaveURL(/\/join-organization\?key=/);
  await expect(page.getByText(en('organization:join.signedOut.body'))).toBeVisible();
  await expect(page.getByText(en('organization:join.signedOut.kept', { days: 7 }))).toBeVisible();
  expect(await page.title()).not.toContain(key);
  const kept = await pending(page);
  expect(kept.key).toBe(key);
  expect(kept.storedAt).toBeGreaterThanOrEqual(before - 5_000);
  const next = encodeURIComponent(`/join-organization?key=${key}`);
  await expect(page.getByRole('link', { name: en('organization:join.signedOut.logIn') })).toHaveAttribute(
    'href',
    `/login?next=${next}`,
  );
  await shot(page, 'org-join-new-signed-out-1280');

  // Create an account from there.
  await page.getByRole('link', { name: en('organization:join.signedOut.signUp') }).click();
  await expect(page).toHaveURL(/\/signup\?next=/);
  await expect(page.getByRole('heading', { name: en('auth:signup.title') })).toBeVisible();
  await page.getByLabel(en('auth:fields.name'), { exact: true }).fill('Nina New');
  await page.getByLabel(en('auth:fields.email'), { exact: true }).fill(email);
  await page.getByLabel(en('auth:fields.password'), { exact: true }).fill('a long enough secret');
  await page.getByRole('button', { name: en('auth:signup.submit') }).click();
  await expect(page.getByRole('heading', { name: en('auth:checkInbox.title') })).toBeVisible();

  // The verification mail opens in another tab of the same browser; she logs in there.
  const verify = await linkFromMail(email, '/verify-email');
  const tab = await page.context().newPage();
  await tab.goto(verify);
  await expect(tab.getByRole('heading', { name: en('auth:verify.verifiedTitle') })).toBeVisible();
  await expect(tab.getByRole('status').filter({ hasText: /verified/ })).toBeVisible();
  await tab.getByRole('link', { name: en('auth:verify.toLogin') }).click();
  await expect(tab).toHaveURL(/\/login$/);
  await tab.getByLabel(en('auth:fields.email'), { exact: true }).fill(email);
  await tab.getByLabel(en('auth:fields.password'), { exact: true }).fill('a long enough secret');
  await tab.getByRole('button', { name: en('auth:login.submit'), exact: true }).click();

  // The first login goes through onboarding, then to the invitation rather than home.
  await expect(tab).toHaveURL(/\/on-boarding\/1$/);
  const onboardingContinue = tab.getByRole('button', { name: en('onboarding:continue'), exact: true });
  for (let slide = 0; slide < 3; slide++) await onboardingContinue.click();
  await expect(tab).toHaveURL(/\/on-boarding\/2$/);
  await onboardingContinue.click();
  await expect(tab).toHaveURL(/\/on-boarding\/3$/);
  await onboardingContinue.click();
  await expect(tab).toHaveURL(/\/on-boarding\/4$/);
  await tab.getByRole('button', { name: en('onboarding:getStarted') }).click();

  await expect(tab).toHaveURL(new RegExp(`/join-organization\\?key=${key}$`));
  await expect(tab.getByText(en('organization:join.signedInAs', { email }))).toBeVisible();
  expect(await tab.title()).not.toContain(key);
  await shot(tab, 'org-join-new-after-onboarding-1280');
  await tab.getByRole('button', { name: en('organization:join.submit') }).click();
  await expect(tab).toHaveURL(/\/organization$/);
  await expect(tab.getByRole('heading', { name: 'Acme Writers' })).toBeVisible();
  await expect(tab.getByText(en('organization:join.joined', { name: 'Acme Writers' }))).toBeVisible();
  await shot(tab, 'org-join-new-joined-1280');

  // Answered: nothing is kept any more, in either tab; the owner sees her among the members.
  expect(await pending(tab)).toBeNull();
  expect(await pending(page)).toBeNull();
  const team = await api<{ members: { email: string }[] }>('POST', '/api/org/team', owner.token, {});
  expect(team.body.data.members.map((m) => m.email)).toContain(email);
});

test('the stand-alone login page also lands on a kept invitation; Not now forgets it', async ({ page }) => {
  const key = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
  const person = await apiSignUp(uniqueEmail('orgnew-later'));
  // A first login is onboarding's; this is a later one.
  await fetch(`${base()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  await page.goto(`/join-organization?key=${key}`);
  await expect(page.getByRole('link', { name: en('organization:join.signedOut.signUp') })).toBeVisible();
  // A fresh visit to /login gets the page that loads none of the app, with no ?next=.
  await page.goto('/login');
  await page.getByLabel(en('auth:fields.email'), { exact: true }).fill(person.email);
  await page.getByLabel(en('auth:fields.password'), { exact: true }).fill(person.password);
  await page.getByRole('button', { name: en('auth:login.submit'), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/join-organization\\?key=${key}$`));
  await page.getByRole('link', { name: en('organization:join.later') }).click();
  await expect(page).toHaveURL(/\/home$/);
  expect(await pending(page)).toBeNull();
});

test('the signed-out invitation page in Spanish and French, at 375 px', async ({ page }) => {
  const key = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
  await page.setViewportSize({ width: 375, height: 812 });
  for (const lng of ['es', 'fr'] as const) {
    await page.context().addCookies([{ name: 'lang', value: lng, url: base() }]);
    await page.goto(`/join-organization?key=${key}`);
    await expect(page.getByText(tr(lng, 'organization:join.signedOut.kept', { days: 7 }))).toBeVisible();
    await expect(page.getByRole('link', { name: tr(lng, 'organization:join.signedOut.signUp') })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, `org-join-new-signed-out-${lng}-375`);
  }
});
