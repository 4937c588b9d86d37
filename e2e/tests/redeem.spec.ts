import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSignUp, exact, type Lng, openSignedIn, shot, tr, uniqueEmail } from '../support';

/** A fresh single-use licence code, made by the operator's command before the server started. */
async function licenceCode(): Promise<string> {
  const res = await fetch(`${process.env.E2E_CONTROL_URL}/licence-code`, { method: 'POST' });
  const { code } = (await res.json()) as { code: string | null };
  if (!code) throw new Error('no licence code left');
  return code;
}

async function setLanguage(page: Page, lng: Lng) {
  const base = new URL(process.env.E2E_BASE_URL!);
  await page.context().addCookies([{ name: 'lang', value: lng, domain: base.hostname, path: '/' }]);
}

async function setProfileLanguage(token: string, lng: Lng) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/user/profile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ language: lng }),
  });
  expect(res.ok).toBe(true);
}

/** The viewport at 1280 and 375 px wide, with `focus` (when given) scrolled into view. */
async function both(page: Page, name: string, focus?: ReturnType<Page['getByRole']>) {
  for (const [width, height] of [
    [1280, 800],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await focus?.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('early-bird and app-deal pages', () => {
  for (const lng of ['en', 'es', 'fr'] as const) {
    test(`both pages have Log in and Back links (${lng})`, async ({ page }) => {
      await setLanguage(page, lng);
      await page.goto('/signup');
      await page.goto('/earlybird/signup', { referer: `${process.env.E2E_BASE_URL}/signup` });
      await expect(page.getByRole('heading', { name: tr(lng, 'auth:earlyBird.title') })).toBeVisible();
      await both(page, `earlybird-${lng}`);
      // Back returns to where the visitor came from.
      await page.getByRole('link', { name: new RegExp(tr(lng, 'auth:back')) }).click();
      await expect(page).toHaveURL(/\/signup$/);
      await page.goto('/earlybird/signup');
      await page.getByRole('link', { name: exact(tr(lng, 'auth:earlyBird.loginLink')) }).click();
      await expect(page).toHaveURL(/\/login$/);

      await page.goto('/appsumo/signup');
      await expect(page.getByRole('heading', { name: tr(lng, 'auth:appDeal.title') })).toBeVisible();
      await both(page, `appdeal-${lng}`);
      await page.getByRole('link', { name: tr(lng, 'auth:appDeal.loginLink') }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fprofile%23redeem$/);
    });
  }

  test('Back on a page opened directly goes to the login page', async ({ page }) => {
    await page.goto('/appsumo/signup');
    await page.getByRole('link', { name: new RegExp(tr('en', 'auth:back')) }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('an existing account redeeming a code', () => {
  test('from the app-deal page: log in, the code waits on the profile, and the page says what changed', async ({
    page,
  }) => {
    const user = await apiSignUp(uniqueEmail('redeem-deal'));
    const code = await licenceCode();
    await page.goto('/appsumo/signup');
    await page.getByLabel(tr('en', 'auth:fields.licenceCode')).fill(code.toLowerCase());
    await page.getByLabel(tr('en', 'auth:fields.name')).fill('Ada');
    await page.getByLabel(tr('en', 'auth:fields.email')).fill(user.email);
    await page.getByLabel(tr('en', 'auth:fields.password')).fill(user.password);
    await page.getByRole('button', { name: tr('en', 'auth:appDeal.submit') }).click();
    await expect(page.getByText(tr('en', 'api:errors.EMAIL_TAKEN'))).toBeVisible();
    await page.getByRole('link', { name: tr('en', 'auth:appDeal.emailTakenAction') }).click();

    await uiLoginHere(page, user.email, user.password);
    await expect(page).toHaveURL(/\/profile#redeem$/);
    const field = page.getByLabel(tr('en', 'profile:redeem.code'));
    await expect(field).toHaveValue(code);
    await page.getByRole('button', { name: tr('en', 'profile:redeem.submit') }).click();

    const summary = page.getByRole('region', { name: tr('en', 'profile:change.title') });
    await expect(summary).toBeVisible();
    await expect(summary.getByTestId('plan-change-plan')).toHaveText(
      tr('en', 'profile:change.planValue', {
        before: tr('en', 'profile:change.plans.free'),
        after: tr('en', 'profile:change.plans.appDeal'),
      }),
    );
    await expect(summary).toContainText('30 → 1,000');
    await expect(summary).toContainText('+970');
    await expect(page.getByText(tr('en', 'profile:redeem.active'))).toBeHidden();
    const profile = await apiGet<{ appDeal: boolean; credits: { basicCredit: number } }>(
      '/api/user/profile',
      (await page.evaluate(() => localStorage.getItem('token')))!,
    );
    expect(profile.data).toMatchObject({ appDeal: true, credits: { basicCredit: 1000 } });
    await both(page, 'profile-redeemed-en', summary);
  });

  test('early-bird with an existing account: what changed, then Continue', async ({ page }) => {
    const user = await apiSignUp(uniqueEmail('redeem-early'));
    await page.goto('/earlybird/signup');
    await page.getByLabel(tr('en', 'auth:fields.name')).fill('Ada');
    await page.getByLabel(tr('en', 'auth:fields.email')).fill(user.email);
    await page.getByLabel(tr('en', 'auth:fields.password')).fill(user.password);
    await page.getByRole('button', { name: tr('en', 'auth:earlyBird.submit') }).click();
    const summary = page.getByRole('region', { name: tr('en', 'profile:change.title') });
    await expect(summary.getByTestId('plan-change-plan')).toHaveText(
      tr('en', 'profile:change.planValue', {
        before: tr('en', 'profile:change.plans.free'),
        after: tr('en', 'profile:change.plans.earlyBird'),
      }),
    );
    await expect(summary).toContainText('+270');
    await both(page, 'earlybird-changed-en');
    await page.getByRole('button', { name: tr('en', 'auth:changed.continue') }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  for (const lng of ['en', 'es', 'fr'] as const) {
    test(`the profile's redeem form refuses bad and used codes, then redeems (${lng})`, async ({ page }) => {
      const used = await licenceCode();
      const other = await apiSignUp(uniqueEmail(`redeem-used-${lng}`));
      const spend = await fetch(`${process.env.E2E_BASE_URL}/api/user/upgradeToAppsumo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: used }),
      });
      expect(spend.ok).toBe(true);

      const user = await apiSignUp(uniqueEmail(`redeem-form-${lng}`));
      await setProfileLanguage(user.token, lng);
      await openSignedIn(page, user.token, '/profile');
      const field = page.getByLabel(tr(lng, 'profile:redeem.code'));
      const submit = page.getByRole('button', { name: tr(lng, 'profile:redeem.submit') });
      await expect(page.getByRole('heading', { name: tr(lng, 'profile:redeem.title') })).toBeVisible();

      await field.fill('not a code');
      await submit.click();
      await expect(page.getByText(tr(lng, 'profile:redeem.codeInvalid'))).toBeVisible();

      await field.fill(used);
      await submit.click();
      await expect(page.getByText(tr(lng, 'api:errors.INVALID_LICENCE_CODE'))).toBeVisible();
      await both(
        page,
        `profile-redeem-error-${lng}`,
        page.getByRole('heading', { name: tr(lng, 'profile:redeem.title') }),
      );

      await field.fill(await licenceCode());
      await submit.click();
      const summary = page.getByRole('region', { name: tr(lng, 'profile:change.title') });
      await expect(summary).toBeVisible();
      await expect(summary).toContainText(tr(lng, 'profile:change.plans.appDeal'));
      await both(page, `profile-redeem-done-${lng}`, summary);

      // After a reload the licence is shown as active, and the form is gone.
      await page.reload();
      await expect(page.getByText(tr(lng, 'profile:redeem.active'))).toBeVisible();
      await expect(page.getByLabel(tr(lng, 'profile:redeem.code'))).toHaveCount(0);
    });
  }
});

/** Logs in on the login page already open (keeps its ?next=). */
async function uiLoginHere(page: Page, email: string, password: string) {
  await expect(page).toHaveURL(/\/login\?next=/);
  // The URL changes before the login form replaces the page it came from, which has fields with the same labels:
  // wait for the form's own button, or the previous page's fields would be filled.
  const submit = page.getByRole('button', { name: tr('en', 'auth:login.submit'), exact: true });
  await expect(submit).toBeVisible();
  await page.getByLabel(tr('en', 'auth:fields.email')).fill(email);
  await page.getByLabel(tr('en', 'auth:fields.password')).fill(password);
  await submit.click();
}
