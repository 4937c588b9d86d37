import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, googleToken, type Lng, shot, storedToken, tr, uiLogin, uniqueEmail } from '../support';

const GSI = 'https://accounts.google.com/gsi/client';

/** A stand-in for Google Identity Services whose button hands `credential` to the app, as Google's does. */
async function fakeGoogle(page: Page, credential: string) {
  const script = `
    window.google = { accounts: { id: {
      initialize(c) { window.__gsiConfig = c; },
      renderButton(parent) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = 'Continue with Google';
        b.onclick = () => window.__gsiConfig.callback({ credential: ${JSON.stringify(credential)}, select_by: 'btn' });
        parent.appendChild(b);
      },
    } } };`;
  await page.route(GSI, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: script }));
}

async function setLanguage(page: Page, lng: Lng) {
  const base = new URL(process.env.E2E_BASE_URL!);
  await page.context().addCookies([{ name: 'lang', value: lng, domain: base.hostname, path: '/' }]);
}

test.describe('deep links survive signing in', () => {
  test('/chat opened signed out lands back on /chat after logging in with a password', async ({ page }) => {
    const user = await apiSignUp(uniqueEmail('deep-chat'));
    await page.goto('/chat');
    await expect(page).toHaveURL(/\/login\?next=%2Fchat$/);
    await page.getByLabel(tr('en', 'auth:fields.email')).fill(user.email);
    await page.getByLabel(tr('en', 'auth:fields.password')).fill(user.password);
    await page.getByRole('button', { name: tr('en', 'auth:login.submit'), exact: true }).click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByRole('textbox').first()).toBeVisible();
    expect(await storedToken(page)).toBeTruthy();
  });

  test('a settings page with a query survives a detour through sign-up and back to log in', async ({ page }) => {
    const user = await apiSignUp(uniqueEmail('deep-setting'));
    await page.goto('/setting/general?x=1');
    await expect(page).toHaveURL(/\/login\?next=%2Fsetting%2Fgeneral%3Fx%3D1$/);
    await page.getByRole('link', { name: tr('en', 'auth:login.signupLink') }).click();
    await expect(page).toHaveURL(/\/signup\?next=%2Fsetting%2Fgeneral%3Fx%3D1$/);
    await page.getByRole('link', { name: tr('en', 'auth:signup.loginLink') }).click();
    // The sign-up form has fields with the same labels and stays on screen until the login page has loaded.
    const submit = page.getByRole('button', { name: tr('en', 'auth:login.submit'), exact: true });
    await expect(submit).toBeVisible();
    await page.getByLabel(tr('en', 'auth:fields.email')).fill(user.email);
    await page.getByLabel(tr('en', 'auth:fields.password')).fill(user.password);
    await submit.click();
    await expect(page).toHaveURL(/\/setting\/general\?x=1$/);
  });

  test('Google sign-in returns to the deep link too', async ({ page }) => {
    const token = await googleToken({ sub: `g-${Date.now()}`, email: uniqueEmail('deep-google'), name: 'Grace' });
    // The first sign-in ever goes through onboarding (spec §4); this one is the account's second.
    const first = await fetch(`${process.env.E2E_BASE_URL}/api/auth/social-signin?idToken=${token}`, {
      method: 'POST',
    });
    expect(first.ok).toBe(true);
    await fakeGoogle(page, token);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
    await page
      .getByRole('group', { name: tr('en', 'auth:google.label') })
      .getByRole('button', { name: 'Continue with Google' })
      .click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('the stand-alone login page (a fresh visit to /login?next=) returns there too, without loading the app', async ({
    page,
  }) => {
    const user = await apiSignUp(uniqueEmail('deep-fresh'));
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/login?next=%2Fsetting%2Fgeneral');
    await page.getByLabel(tr('en', 'auth:fields.email')).fill(user.email);
    // The sign-in page alone: no router, no query cache, no zod.
    expect(scripts.some((p) => /\/start-app-|\/text-/.test(p))).toBe(false);
    await page.getByLabel(tr('en', 'auth:fields.password')).fill(user.password);
    await page.getByRole('button', { name: tr('en', 'auth:login.submit'), exact: true }).click();
    await expect(page).toHaveURL(/\/setting\/general$/);
    expect(await storedToken(page)).toBeTruthy();
  });

  test('never an open redirect: another site in ?next= lands on /home', async ({ page }) => {
    const user = await apiSignUp(uniqueEmail('deep-evil'));
    for (const next of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await uiLogin(page, user.email, user.password);
      await expect(page).toHaveURL(/\/home$/);
      await page.evaluate(() => localStorage.clear());
    }
  });

  test('a signed-in visitor opening /login?next= goes straight there', async ({ page }) => {
    const user = await apiSignUp(uniqueEmail('deep-signed'));
    await uiLogin(page, user.email, user.password);
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/login?next=%2Fprofile');
    await expect(page).toHaveURL(/\/profile$/);
  });
});

test.describe('paths with a dot', () => {
  for (const lng of ['en', 'es', 'fr'] as const) {
    test(`a dotted unknown path shows the 404 page, not JSON (${lng})`, async ({ page }) => {
      await setLanguage(page, lng);
      const response = await page.goto('/reports/summary.pdf');
      expect(response?.headers()['content-type']).toContain('text/html');
      await expect(page).toHaveURL(/\/not-found\?page=%2Freports%2Fsummary\.pdf$/);
      await expect(page.getByText(tr(lng, 'common:notFound.message'))).toBeVisible();
      await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
      await shot(page, `not-found-dotted-${lng}-1280`);
      await page.setViewportSize({ width: 375, height: 740 });
      await shot(page, `not-found-dotted-${lng}-375`);
    });
  }

  test('the API keeps its JSON 404s and missing assets stay 404s', async ({ request }) => {
    const api = await request.get('/api/nothing.json');
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await request.get('/assets/missing-123.js')).status()).toBe(404);
  });
});

test.describe('screenshots of the login page on the way back', () => {
  for (const lng of ['en', 'es', 'fr'] as const) {
    test(`login with ?next= (${lng})`, async ({ page }) => {
      await setLanguage(page, lng);
      // Inside the app: sent to the login page by a protected page.
      await page.goto('/chat');
      await expect(page.getByRole('button', { name: tr(lng, 'auth:login.submit'), exact: true })).toBeVisible();
      await shot(page, `login-next-${lng}-1280`);
      // The stand-alone page of a fresh visit, with what a wrong try shows.
      await page.goto('/login');
      await page.getByRole('button', { name: tr(lng, 'auth:login.submit'), exact: true }).click();
      await expect(page.getByText(tr(lng, 'auth:validation.email'))).toBeVisible();
      await expect(page).toHaveTitle(`${tr(lng, 'auth:login.pageTitle')} | Parley`);
      await shot(page, `login-fresh-${lng}-1280`);
      await page.setViewportSize({ width: 375, height: 740 });
      await shot(page, `login-fresh-${lng}-375`);
      await page.goto('/chat');
      await expect(page.getByRole('button', { name: tr(lng, 'auth:login.submit'), exact: true })).toBeVisible();
      await shot(page, `login-next-${lng}-375`);
    });
  }
});
