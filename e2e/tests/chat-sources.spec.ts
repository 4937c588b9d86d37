import { expect, test, type Page } from '@playwright/test';
import { apiSignUp, openSignedIn, tr, uniqueEmail, type Lng } from '../support';

/** Chat about a web page and with web search, against loopback stand-ins for a site and for SearXNG. */
const composer = (page: Page, lng: Lng) =>
  page.getByRole('textbox', { name: tr(lng, 'chat:composer.label'), exact: true });
const stop = (page: Page, lng: Lng) => page.getByRole('button', { name: tr(lng, 'chat:composer.stop'), exact: true });

async function open(page: Page, lng: Lng) {
  const { token } = await apiSignUp(uniqueEmail(`sources-${lng}`));
  if (lng !== 'en') {
    await fetch(`${process.env.E2E_BASE_URL}/api/user/profile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: lng }),
    });
  }
  await openSignedIn(page, token, '/chat');
  await expect(composer(page, lng)).toBeVisible();
  await expect(page.getByRole('button', { name: /parley-test-model/ })).toBeVisible();
}

for (const lng of ['en', 'es', 'fr'] as const) {
  test(`asks about a web page and searches the web (${lng})`, async ({ page }) => {
    await open(page, lng);

    // A page: its readable text reaches the model, which names it.
    await page.getByRole('button', { name: tr(lng, 'chat:composer.url'), exact: true }).click();
    await page.getByPlaceholder(tr(lng, 'chat:composer.urlPlaceholder')).fill(process.env.E2E_ARTICLE_URL!);
    await composer(page, lng).fill('What is this page about?');
    await composer(page, lng).press('Enter');
    const answers = page.getByRole('log').getByRole('article');
    await expect(answers.last()).toContainText('The page is titled "Tidal energy explained"', { timeout: 20_000 });
    await expect(stop(page, lng)).toHaveCount(0, { timeout: 20_000 });

    // Ask For Web: numbered sources under the answer, as links.
    await page.getByRole('button', { name: tr(lng, 'chat:composer.webSearch') }).click();
    await composer(page, lng).fill('How many moons does Mars have?');
    await composer(page, lng).press('Enter');
    await expect(answers.last()).toContainText('According to [1]', { timeout: 20_000 });
    await expect(stop(page, lng)).toHaveCount(0, { timeout: 20_000 });
    const source = answers.last().getByRole('link', { name: /Mars facts/ });
    await expect(source).toHaveAttribute('href', 'https://science.example.org/mars');
    await expect(answers.last().getByText(tr(lng, 'chat:message.sources'))).toBeVisible();

    // Two credits went on /home: the daily ones are spent first (3 → 1), the basic ones are untouched.
    await page.goto('/home');
    // The credits card comes first; the plans further down name the same credits.
    const value = (label: string) =>
      page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]');
    await expect(value(tr(lng, 'home:credits.dailyCredit'))).toHaveText('1');
    await expect(value(tr(lng, 'home:credits.basicCredit'))).toHaveText('30');
  });
}
