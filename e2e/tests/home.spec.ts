import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, openSignedIn, shot, tr, uniqueEmail } from '../support';

/** The dashboard as a person sees it after using Parley: credits going down, 30 days of use, free uses left. */

const post = (token: string, route: string, body: unknown) =>
  fetch(`${process.env.E2E_BASE_URL}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const valueOf = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

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
