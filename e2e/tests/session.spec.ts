import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiGet, apiSignUp, shot, storedToken, tr, uiLogin, uniqueEmail } from '../support';

/** A second browser (its own storage) where the same user signs in through the form. */
async function signInElsewhere(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await uiLogin(page, email, password);
  await expect(page).toHaveURL(/\/home$/);
  return { context, page };
}

async function expectForcedOut(page: Page) {
  // Signing in again returns to the page the session ended on (?next=).
  await expect(page).toHaveURL(/\/login(\?next=%2F[^&]*)?$/);
  // The server's message says why: the account was signed in elsewhere.
  await expect(page.getByText(tr('en', 'api:errors.SESSION_REPLACED_replaced'), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: tr('en', 'auth:login.submit') })).toBeVisible();
  await shot(page, 'forced-out-replaced');
  expect(await storedToken(page)).toBeNull();
}

test.describe('forced logout (multiple login off)', () => {
  test('signing in elsewhere ends this session at the next navigation', async ({ page, browser }) => {
    const { email, password } = await apiSignUp(uniqueEmail('forced-nav'));
    await uiLogin(page, email, password);
    await expect(page).toHaveURL(/\/home$/);
    const tokenA = await storedToken(page);

    const b = await signInElsewhere(browser, email, password);
    const tokenB = await storedToken(b.page);
    expect(tokenB).not.toBe(tokenA);
    // The server answers the old session with a body status 409.
    const old = await apiGet('/api/user/profile', tokenA!);
    expect(old.bodyStatus).toBe(409);

    await page.goto('/profile');
    await expectForcedOut(page);

    // B is unaffected.
    await b.page.reload();
    await expect(b.page).toHaveURL(/\/home$/);
    expect(await storedToken(b.page)).toBe(tokenB);
    await b.context.close();
  });

  test('signing in elsewhere ends this session at the next API call, without a reload', async ({ page, browser }) => {
    const { email, password } = await apiSignUp(uniqueEmail('forced-call'));
    await uiLogin(page, email, password);
    await expect(page).toHaveURL(/\/home$/);
    await page
      .getByRole('navigation')
      .getByRole('link', { name: tr('en', 'shell:menu.settings') })
      .click();
    await expect(page).toHaveURL(/\/setting$/);

    const b = await signInElsewhere(browser, email, password);

    // Choosing a theme saves it to the shared settings: that call meets the 409.
    const call = page.waitForResponse((r) => r.url().endsWith('/api/user/setting') && r.request().method() === 'POST');
    await page.getByRole('radio', { name: tr('en', 'settings:appearance.themes.dark') }).click();
    expect((await call).status()).toBe(409);
    await expectForcedOut(page);
    await b.context.close();
  });
});

test.describe('route guards', () => {
  for (const path of ['/home', '/profile', '/setting', '/setting/general', '/on-boarding/1']) {
    test(`${path} without a token goes to /login, which comes back to it`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('next') === path);
      await expect(page.getByRole('heading', { name: tr('en', 'auth:login.title') })).toBeVisible();
    });
  }

  test('/ goes to /login when signed out and to /home when signed in', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    const { email, password } = await apiSignUp(uniqueEmail('root'));
    await uiLogin(page, email, password);
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    // A signed-in visitor does not see the sign-in pages.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an unknown route lands on the 404 page carrying the original path', async ({ page }) => {
    await page.goto('/no/such/page?x=1');
    await expect(page).toHaveURL(/\/not-found\?page=(%2Fno%2Fsuch%2Fpage|\/no\/such\/page)/);
    expect(new URL(page.url()).searchParams.get('page')).toBe('/no/such/page?x=1');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await expect(page.getByText(tr('en', 'common:notFound.message'), { exact: true })).toBeVisible();
    await expect(page.getByText('This page could not be found.')).toBeVisible();
    await expect(page).toHaveTitle(`${tr('en', 'common:notFound.title')} | Parley`);
    await shot(page, '404');
    await page.getByRole('link', { name: tr('en', 'common:notFound.login') }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
