import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, openSignedIn, shot, tr, uniqueEmail, type Lng } from '../support';

/** A new account whose interface language is `lng`, signed in on /on-boarding/1. */
async function startOnboarding(page: Page, lng: Lng) {
  const { token } = await apiSignUp(uniqueEmail(`onboarding-${lng}`));
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/user/profile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ language: lng }),
  });
  expect(res.ok).toBe(true);
  await page.context().addCookies([{ name: 'lang', value: lng, url: process.env.E2E_BASE_URL! }]);
  await openSignedIn(page, token, '/on-boarding/1');
}

test('step 1’s Continue shows every slide, the install one included, then step 2', async ({ page }) => {
  await startOnboarding(page, 'en');
  const next = page.getByRole('button', { name: tr('en', 'onboarding:continue'), exact: true });
  const slides = ['write', 'chat', 'extension'];
  for (const [i, slide] of slides.entries()) {
    await expect(page.getByText(tr('en', 'onboarding:slider.position', { current: i + 1, total: 3 }))).toBeAttached();
    await expect(page.getByRole('button', { name: tr('en', 'onboarding:slider.goTo', { n: i + 1 }) })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(
      page.getByRole('heading', { level: 2, name: tr('en', `onboarding:slider.${slide}.title`) }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/on-boarding\/1$/);
    if (slide === 'extension') {
      // No extension in this browser: the slide leads to /install.
      await expect(page.getByRole('link', { name: tr('en', 'onboarding:slider.extension.action') })).toBeVisible();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await shot(page, `onboarding-slide3-en-${width}`, { fullPage: true });
      }
    }
    await next.click();
  }
  await expect(page).toHaveURL(/\/on-boarding\/2$/);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'onboarding:step2.title') })).toBeVisible();
});

test('the install slide leads to /install, whose Continue comes back to step 2', async ({ page }) => {
  await startOnboarding(page, 'en');
  const next = page.getByRole('button', { name: tr('en', 'onboarding:continue'), exact: true });
  await next.click();
  await next.click();
  await page.getByRole('link', { name: tr('en', 'onboarding:slider.extension.action') }).click();
  await expect(page).toHaveURL(/\/install\?next=/);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'common:install.title') })).toBeVisible();
  await page.getByRole('link', { name: tr('en', 'common:actions.continue') }).click();
  await expect(page).toHaveURL(/\/on-boarding\/2$/);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'onboarding:step2.title') })).toBeVisible();
});

for (const lng of ['es', 'fr'] as const) {
  test(`the install slide reads in ${lng}`, async ({ page }) => {
    await startOnboarding(page, lng);
    const next = page.getByRole('button', { name: tr(lng, 'onboarding:continue'), exact: true });
    await next.click();
    await next.click();
    await expect(
      page.getByRole('heading', { level: 2, name: tr(lng, 'onboarding:slider.extension.title') }),
    ).toBeVisible();
    await expect(page.getByText(tr(lng, 'onboarding:slider.extension.body'))).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `onboarding-slide3-${lng}-${width}`, { fullPage: true });
    }
  });
}
