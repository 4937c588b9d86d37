import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSignUp, googleToken, storedToken, tr, uniqueEmail } from '../support';

const GSI = 'https://accounts.google.com/gsi/client';

type Recorded = {
  inits: { client_id: string; ux_mode?: string }[];
  renders: { type?: string; theme?: string; size?: string; text?: string; locale?: string; width?: number }[];
};

/**
 * Serves a small stand-in for Google Identity Services at its real address: `initialize` keeps the callback,
 * `renderButton` draws a real button that hands `credential` to it the way Google's button does. What the app
 * passes to both is recorded on `window.__gsi`.
 */
async function fakeGoogle(page: Page, credential: string) {
  const script = `
    (() => {
      const recorded = (window.__gsi = { inits: [], renders: [] });
      let config = null;
      const heights = { large: 40, medium: 32, small: 20 };
      window.google = {
        accounts: {
          id: {
            initialize(c) {
              config = c;
              recorded.inits.push({ client_id: c.client_id, ux_mode: c.ux_mode });
            },
            renderButton(parent, options) {
              recorded.renders.push(JSON.parse(JSON.stringify(options)));
              const button = document.createElement('button');
              button.type = 'button';
              button.textContent = 'Continue with Google';
              button.style.height = (heights[options.size] || 40) + 'px';
              button.addEventListener('click', () =>
                config.callback({ credential: ${JSON.stringify(credential)}, clientId: config.client_id, select_by: 'btn' }),
              );
              parent.appendChild(button);
            },
          },
        },
      };
    })();`;
  await page.route(GSI, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: script }));
}

const googleButton = (page: Page) =>
  page
    .getByRole('group', { name: tr('en', 'auth:google.label') })
    .getByRole('button', { name: 'Continue with Google' });
const recorded = (page: Page) => page.evaluate(() => (window as unknown as { __gsi: Recorded }).__gsi);

test.describe('Google sign-in', () => {
  test('a new Google user is signed in and onboarded; the button follows §9 (large, outline, standard)', async ({
    page,
    browser,
  }) => {
    const sub = `g-${Date.now()}`;
    const email = uniqueEmail('google');
    const name = 'Grace Google';
    await fakeGoogle(page, await googleToken({ sub, email, name }));

    await page.goto('/login');
    await expect(page.getByText(tr('en', 'auth:or'), { exact: true })).toBeVisible();
    await expect(googleButton(page)).toBeVisible();

    const gsi = await recorded(page);
    expect(gsi.inits.at(-1)?.client_id).toBe(process.env.E2E_GOOGLE_CLIENT_ID);
    expect(gsi.renders.at(-1)).toMatchObject({ size: 'large', theme: 'outline', type: 'standard' });
    // The space kept for the button is the large height (40px).
    const box = await page.getByTestId('google-sign-in').boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(40);

    await googleButton(page).click();
    await expect(page).toHaveURL(/\/on-boarding\/1$/);
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    const profile = (
      await apiGet<{ name: string; email: string; loginCount: number; verified: boolean }>('/api/user/profile', token!)
    ).data;
    expect(profile).toMatchObject({ name, email, loginCount: 1, verified: true });

    // The same Google account again, in another browser: straight to the dashboard.
    const other = await browser.newContext();
    const again = await other.newPage();
    await fakeGoogle(again, await googleToken({ sub, email, name }));
    await again.goto('/login');
    await googleButton(again).click();
    await expect(again).toHaveURL(/\/home$/);
    await expect(again.getByRole('heading', { level: 1, name: tr('en', 'home:greeting', { name }) })).toBeVisible();
    await other.close();
  });

  test('the sign-up page offers the same Google button', async ({ page }) => {
    await fakeGoogle(page, await googleToken({ sub: `g-${Date.now()}`, email: uniqueEmail('gsignup'), name: 'Sig' }));
    await page.goto('/signup');
    await googleButton(page).click();
    await expect(page).toHaveURL(/\/on-boarding\/1$/);
  });

  test('a forged Google token shows an error and stays on /login', async ({ page }) => {
    await fakeGoogle(
      page,
      await googleToken({ sub: `g-${Date.now()}`, email: uniqueEmail('forged'), name: 'Mallory', foreign: true }),
    );
    await page.goto('/login');
    const answer = page.waitForResponse((r) => r.url().includes('/api/auth/social-signin'));
    await googleButton(page).click();
    expect((await answer).ok()).toBe(false);
    await expect(page.getByText(tr('en', 'api:errors.GOOGLE_TOKEN_INVALID'))).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
  });

  test('a Google account whose e-mail already has a password account is not taken over', async ({ page }) => {
    const { email } = await apiSignUp(uniqueEmail('taken'));
    await fakeGoogle(page, await googleToken({ sub: `g-${Date.now()}`, email, name: 'Impostor' }));
    await page.goto('/login');
    await googleButton(page).click();
    await expect(page.getByText(tr('en', 'api:errors.ACCOUNT_USES_PASSWORD'))).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
  });

  test('when Google’s script cannot load, the page says so and e-mail sign-in still works', async ({ page }) => {
    await page.route(GSI, (route) => route.abort());
    await page.goto('/login');
    await expect(page.getByText(tr('en', 'auth:google.scriptFailed'))).toBeVisible();
    await expect(page.getByRole('button', { name: tr('en', 'auth:login.submit'), exact: true })).toBeEnabled();
    // Said again in the language picked afterwards, like the rest of the page.
    await page.getByLabel(tr('en', 'shell:language'), { exact: true }).selectOption('es');
    await expect(page.getByRole('button', { name: tr('es', 'auth:login.submit'), exact: true })).toBeEnabled();
    await expect(page.getByText(tr('es', 'auth:google.scriptFailed'))).toBeVisible();
  });
});
