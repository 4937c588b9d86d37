import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, openSignedIn, shot, tr, uniqueEmail, type Lng } from '../support';
import { apiChat, apiRename, noSidewaysScroll, setAppearance } from './conversation-helpers';

/** The dashboard as a person sees it after using Parley: credits going down, 30 days of use, free uses left. */

const post = (token: string, route: string, body: unknown) =>
  fetch(`${process.env.E2E_BASE_URL}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A figure of the credits or usage cards (the plans further down name the same credits). */
const valueOf = (page: Page, label: string) =>
  page.locator('section:not(#plans) dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

test('the dashboard shows the daily credits going down, the 30-day chart and the free uses left', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('home'));
  await openSignedIn(page, token, '/home');
  await expect(valueOf(page, tr('en', 'home:credits.dailyCredit'))).toHaveText('3');
  await expect(page.getByText(/^Back to 3 at midnight · Next renewal:/)).toBeVisible();
  const summaries = page
    .getByText(tr('en', 'home:freeTier.capabilities.summary'))
    .locator('xpath=following-sibling::*[1]');
  await expect(summaries).toHaveText(tr('en', 'home:freeTier.left', { left: 3, limit: 3 }));

  // A summary (a gated capability) and a rewrite: two daily credits, one of the three free summaries.
  const model = 'CUSTOM_OPENAI_COMPATIBLE';
  expect((await post(token, '/api/ai/summary', { kind: 'page', text: 'A page about tides.', model })).status).toBe(200);
  expect((await post(token, '/api/ai/edit-message', { text: 'Make it better', model })).status).toBe(200);
  await page.reload();
  await expect(valueOf(page, tr('en', 'home:credits.dailyCredit'))).toHaveText('1');
  await expect(valueOf(page, tr('en', 'home:credits.basicCredit'))).toHaveText('30');
  await expect(valueOf(page, tr('en', 'home:usage.basicUse'))).toHaveText('2');
  await expect(summaries).toHaveText(tr('en', 'home:freeTier.left', { left: 2, limit: 3 }));
  // The chart's table (for screen readers) has 30 days, today last, with the two credits used.
  const table = page.getByRole('table', { name: tr('en', 'home:usage.chartTitle') });
  await expect(table.getByRole('row')).toHaveCount(31);
  await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('2');
  await expect(page.getByTestId('usage-chart').locator('rect')).toHaveCount(1);
  await shot(page, 'home-usage-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByTestId('usage-chart').scrollIntoViewIfNeeded();
  await shot(page, 'home-usage-375');
});

test('a first visit says Welcome and offers three ways to begin, each leading somewhere', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('home-first'), 'correct horse battery', 'Noor');
  await openSignedIn(page, token, '/home');
  await expect(
    page.getByRole('heading', { level: 1, name: tr('en', 'home:welcome.title', { name: 'Noor' }) }),
  ).toBeVisible();
  await expect(page.getByText(tr('en', 'home:recent.empty'))).toBeVisible();
  const start = page.getByRole('region', { name: tr('en', 'home:start.title') });
  await expect(start.getByRole('link')).toHaveCount(3);
  await shot(page, 'home-first-1280-en');

  // See plans: the plan chooser. Back on the dashboard, the plans without payment are listed, the current one marked.
  await start.getByRole('link', { name: new RegExp(`^${tr('en', 'home:start.plans')}`) }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await page.goBack();
  const plans = page.getByRole('region', { name: tr('en', 'home:plans.title') });
  await plans.scrollIntoViewIfNeeded();
  await expect(plans).toBeInViewport();
  await expect(plans.getByTestId('plan-free')).toHaveAttribute('aria-current', 'true');
  await expect(plans.getByTestId('plan-free')).toContainText(tr('en', 'home:plans.current'));
  await shot(page, 'home-plans-1280-en');

  await start.getByRole('link', { name: new RegExp(`^${tr('en', 'home:start.install')}`) }).click();
  await expect(page).toHaveURL(/\/install$/);
  await page.goBack();
  await start.getByRole('link', { name: new RegExp(`^${tr('en', 'home:start.chat')}`) }).click();
  await expect(page).toHaveURL(/\/chat$/);
});

test('recent conversations are listed newest first and open where they were left', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('home-recent'), 'correct horse battery', 'Noor');
  const older = await apiChat(token, 'Plan a trip');
  await apiRename(token, older, 'Trip to Lisbon');
  const newer = await apiChat(token, 'A soup recipe');
  await apiRename(token, newer, 'Pumpkin soup');
  await openSignedIn(page, token, '/home');
  await expect(
    page.getByRole('heading', { level: 1, name: tr('en', 'home:greeting', { name: 'Noor' }) }),
  ).toBeVisible();
  const recent = page.getByTestId('recent-conversations').getByRole('link');
  await expect(recent).toHaveCount(2);
  await expect(recent.nth(0)).toContainText('Pumpkin soup');
  await expect(recent.nth(1)).toContainText('Trip to Lisbon');
  await expect(recent.nth(0)).toHaveAttribute('href', `/chat/${newer}`);
  // Dated as every list of Parley dates things: today, the time alone ("11:58 PM"; the day too just after midnight).
  await expect(recent.nth(0).locator('time')).toHaveText(/^([A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d{2}\s[AP]M$/);
  await recent.nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${older}$`));
  await expect(page.getByRole('log').getByRole('article').first()).toContainText('Plan a trip');
});

for (const lng of ['en', 'es', 'fr'] as Lng[]) {
  test(`at 375 px the cards stand in two columns, nothing pokes out (${lng})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: lng });
    const page = await context.newPage();
    const { token } = await apiSignUp(uniqueEmail(`home-375-${lng}`), 'correct horse battery', 'Noor');
    await fetch(`${process.env.E2E_BASE_URL}/api/user/profile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: lng }),
    });
    await apiChat(token, 'Hello');
    await openSignedIn(page, token, '/home');
    await expect(
      page.getByRole('heading', { level: 1, name: tr(lng, 'home:greeting', { name: 'Noor' }) }),
    ).toBeVisible();
    const credits = page.getByRole('region', { name: tr(lng, 'home:credits.title') }).locator('dl > div');
    await expect(credits).toHaveCount(4);
    const boxes = await Promise.all([0, 1, 2].map((i) => credits.nth(i).boundingBox()));
    expect(Math.round(boxes[0]!.y)).toBe(Math.round(boxes[1]!.y));
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, `home-375-${lng}`);
    await shot(page, `home-375-${lng}-full`, { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, `home-1280-${lng}`, { fullPage: true });
    await context.close();
  });
}

test('the dashboard in dark theme, at 1280 and 375 px', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('home-dark'), 'correct horse battery', 'Noor');
  await apiChat(token, 'Hello');
  await openSignedIn(page, token, '/not-found');
  await setAppearance(page, { theme: 'dark' });
  await page.goto('/home');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByTestId('recent-conversations').getByRole('link')).toHaveCount(1);
  await shot(page, 'home-dark-1280', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  // The side menu's room closes with a 200 ms transition: the page settles without sideways scroll.
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await shot(page, 'home-dark-375');
});
