import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSignUp, openSignedIn, shot, tr, uniqueEmail, type Lng } from '../support';

const sideMenu = (page: Page, lng: Lng = 'en') => page.getByRole('complementary', { name: tr(lng, 'shell:sideMenu') });
const px = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

/** The side menu's rendered box, once its 200ms transition has settled. */
async function settledBox(page: Page) {
  const aside = page.locator('aside#side-menu');
  let last = '';
  await expect
    .poll(
      async () => {
        const box = await aside.boundingBox();
        const now = JSON.stringify(box && [Math.round(box.x), Math.round(box.width)]);
        const stable = now === last;
        last = now;
        return stable;
      },
      { intervals: [100, 100, 150, 250] },
    )
    .toBe(true);
  return (await aside.boundingBox())!;
}

/** Checks the interface is in `lng` on /setting/general: several visible strings, <html lang>, the tab title. */
async function expectSettingsIn(page: Page, lng: Lng) {
  await expect(page.locator('html')).toHaveAttribute('lang', lng);
  await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'settings:general.pageTitle') })).toBeVisible();
  await expect(page.getByRole('main').getByText(tr(lng, 'settings:general.subtitle'))).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: tr(lng, 'shell:signOut') })).toBeVisible();
  const nav = sideMenu(page, lng);
  await expect(nav.getByRole('link', { name: tr(lng, 'shell:menu.backToApp') })).toBeVisible();
  await expect(nav.getByRole('link', { name: tr(lng, 'settings:menu.appearance') })).toBeVisible();
  await expect(page.getByRole('group', { name: tr(lng, 'settings:general.interfaceLanguage') })).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(tr(lng, `shell:languages.${lng}`)) })).toBeChecked();
  await expect(page).toHaveTitle(`${tr(lng, 'settings:general.pageTitle')} | Parley`);
}

test.describe('interface language', () => {
  test('switching to Spanish then French changes the UI at once and persists (cookie and profile)', async ({
    page,
    browser,
  }) => {
    const { token } = await apiSignUp(uniqueEmail('i18n'), 'correct horse battery', 'Lucía');
    await openSignedIn(page, token, '/setting/general');
    await expectSettingsIn(page, 'en');

    // → Spanish.
    await page.getByRole('radio', { name: new RegExp(tr('en', 'shell:languages.es')) }).check();
    await expectSettingsIn(page, 'es');
    await expect(page.getByText(tr('es', 'settings:general.saved'))).toBeVisible();
    await expect
      .poll(async () => (await apiGet<{ language: string }>('/api/user/profile', token)).data.language)
      .toBe('es');
    expect((await page.context().cookies()).find((c) => c.name === 'lang')?.value).toBe('es');
    await page.reload();
    await expectSettingsIn(page, 'es');

    // → French (the option is now labelled in Spanish).
    await page.getByRole('radio', { name: new RegExp(tr('es', 'shell:languages.fr')) }).check();
    await expectSettingsIn(page, 'fr');
    const savedFr = page.getByText(tr('fr', 'settings:general.saved'));
    await expect(savedFr).toBeVisible();
    await expect(page.getByRole('banner').getByLabel(tr('fr', 'shell:language'))).toHaveValue('fr');
    await expect
      .poll(async () => (await apiGet<{ language: string }>('/api/user/profile', token)).data.language)
      .toBe('fr');
    // Once the toast has slid in (it enters from the right), for the screenshot.
    await expect
      .poll(async () => {
        const box = await savedFr.boundingBox();
        return box !== null && box.x + box.width <= 1280;
      })
      .toBe(true);
    await shot(page, 'settings-fr');
    await page.reload();
    await expectSettingsIn(page, 'fr');

    // The dashboard too.
    await sideMenu(page, 'fr')
      .getByRole('link', { name: tr('fr', 'shell:menu.backToApp') })
      .click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(
      page.getByRole('heading', { level: 1, name: tr('fr', 'home:welcome.title', { name: 'Lucía' }) }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: tr('fr', 'home:credits.title') })).toBeVisible();
    await expect(page).toHaveTitle(`${tr('fr', 'home:title')} | Parley`);

    // Another browser with no language cookie: the profile's language wins once signed in.
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await openSignedIn(fresh, token, '/home');
    await expect(fresh.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(fresh).toHaveTitle(`${tr('fr', 'home:title')} | Parley`);
    await expect(fresh.getByRole('banner').getByRole('link', { name: tr('fr', 'shell:signOut') })).toBeVisible();
    await other.close();
  });

  test('page titles read "title | Parley"', async ({ page }) => {
    for (const [path, key] of [
      ['/login', 'auth:login.pageTitle'],
      ['/signup', 'auth:signup.pageTitle'],
      ['/forgot-password', 'auth:forgot.title'],
      ['/not-found', 'common:notFound.title'],
    ] as const) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(`${tr('en', key)} | Parley`);
    }
    const { token } = await apiSignUp(uniqueEmail('titles'));
    await openSignedIn(page, token, '/home');
    for (const [path, key] of [
      ['/home', 'home:title'],
      ['/profile', 'profile:title'],
      ['/setting', 'settings:appearance.pageTitle'],
      ['/setting/general', 'settings:general.pageTitle'],
      ['/on-boarding/2', 'onboarding:pageTitle'],
    ] as const) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(`${tr('en', key)} | Parley`);
    }
  });
});

test.describe('layout', () => {
  test('side menu at 1280px: visible, 20rem open, about 6.2em collapsed, remembered after reload', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('wide'), 'correct horse battery', 'Wide Screen');
    await openSignedIn(page, token, '/home');
    const aside = sideMenu(page);
    await expect(aside).toBeVisible();
    await expect(aside.getByRole('link', { name: tr('en', 'shell:menu.home') })).toBeVisible();
    expect(await aside.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    // The small-screen toggle is not shown on wide screens.
    await expect(page.getByRole('button', { name: tr('en', 'shell:toggleAsideMenu') })).toBeHidden();

    const rootPx = await px(page, 'html');
    const open = await settledBox(page);
    expect(open.x).toBeCloseTo(0, 0);
    expect(
      Math.abs(open.width - 20 * rootPx),
      `open width ${open.width} vs 20rem = ${20 * rootPx}px`,
    ).toBeLessThanOrEqual(1);
    // The page content starts where the menu ends.
    const main = (await page.locator('main#main').boundingBox())!;
    expect(Math.abs(main.x - open.width)).toBeLessThanOrEqual(1);
    await expect(
      page.getByRole('heading', { level: 1, name: tr('en', 'home:welcome.title', { name: 'Wide Screen' }) }),
    ).toBeVisible();
    await shot(page, 'home-1280');

    // Collapse.
    await aside.getByRole('button', { name: tr('en', 'shell:collapseMenu') }).click();
    const emPx = await px(page, 'aside#side-menu');
    const collapsed = await settledBox(page);
    expect(
      Math.abs(collapsed.width - 6.2 * emPx),
      `collapsed width ${collapsed.width} vs 6.2em = ${6.2 * emPx}px`,
    ).toBeLessThanOrEqual(1);
    // Still usable: icons with accessible names.
    await expect(aside.getByRole('link', { name: tr('en', 'shell:menu.profile') })).toBeVisible();
    expect(Math.abs((await page.locator('main#main').boundingBox())!.x - collapsed.width)).toBeLessThanOrEqual(1);

    // Remembered after a reload.
    await page.reload();
    await expect(aside.getByRole('button', { name: tr('en', 'shell:expandMenu') })).toBeVisible();
    expect(Math.abs((await settledBox(page)).width - collapsed.width)).toBeLessThanOrEqual(1);

    // Expand again; also remembered.
    await aside.getByRole('button', { name: tr('en', 'shell:expandMenu') }).click();
    await page.reload();
    await expect(aside.getByRole('button', { name: tr('en', 'shell:collapseMenu') })).toBeVisible();
    expect(Math.abs((await settledBox(page)).width - 20 * rootPx)).toBeLessThanOrEqual(1);
  });

  test('side menu at 375px: off-screen until "Toggle Aside Menu" opens it, and not remembered', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const { token } = await apiSignUp(uniqueEmail('narrow'), 'correct horse battery', 'Small Screen');
    await openSignedIn(page, token, '/home');
    await expect(
      page.getByRole('heading', { level: 1, name: tr('en', 'home:welcome.title', { name: 'Small Screen' }) }),
    ).toBeVisible();

    const toggle = page.getByRole('banner').getByRole('button', { name: tr('en', 'shell:toggleAsideMenu') });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const hidden = await settledBox(page);
    expect(hidden.x + hidden.width, 'the closed menu is entirely left of the screen').toBeLessThanOrEqual(0);
    // Off-screen links are neither on screen nor reachable with the keyboard.
    await expect(sideMenu(page).getByRole('link', { name: tr('en', 'shell:menu.home') })).not.toBeInViewport();
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('aside'))), `tab ${i + 1}`).toBe(false);
    }

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const shown = await settledBox(page);
    expect(shown.x).toBeCloseTo(0, 0);
    expect(shown.x + shown.width).toBeLessThanOrEqual(375);
    await expect(sideMenu(page).getByRole('link', { name: tr('en', 'shell:menu.profile') })).toBeInViewport();
    await shot(page, 'home-375-menu');
    expect(await page.evaluate(() => localStorage.getItem('sideMenuOpen'))).toBeNull();

    // Not remembered: closed again after a reload.
    await page.reload();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const again = await settledBox(page);
    expect(again.x + again.width).toBeLessThanOrEqual(0);

    // Following a link closes it; Escape closes it too.
    await toggle.click();
    await sideMenu(page)
      .getByRole('link', { name: tr('en', 'shell:menu.profile') })
      .click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // The page has arrived (its route closes the menu once more when it does), before the menu is opened again.
    await expect(page).toHaveTitle(`${tr('en', 'profile:title')} | Parley`);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('the header is sticky', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 500 });
    const { token } = await apiSignUp(uniqueEmail('sticky'));
    await openSignedIn(page, token, '/home');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: tr('en', 'shell:signOut') })).toBeAttached();
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(scrollable, 'the dashboard is taller than a 500px screen').toBeGreaterThan(200);
    await page.mouse.wheel(0, 10_000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const box = (await header.boundingBox())!;
    expect(box.y).toBeCloseTo(0, 0);
    await expect(header.getByRole('button', { name: tr('en', 'shell:toggleAsideMenu') })).toBeInViewport();
  });
});
