import { expect, test } from '@playwright/test';
import { apiSignUp, openSignedIn, requestsOf, tr, uniqueEmail } from '../support';

/**
 * Going from page to page with the menu: the page one leaves stays until the next can show (the navigation waits for
 * its code and its translations), and the next never falls back to the page skeleton on its way. A part that loaded
 * its translations only once its data had come (the plan chooser) would suspend then, show the skeleton, and be held
 * back 300 ms by React before it showed.
 */
const PAGES: [from: string, link: string][] = [
  ...['subscription', 'organization', 'templates', 'imageGeneration', 'imageEditor', 'chat', 'home'].map(
    (key): [string, string] => ['/profile', `shell:menu.${key}`],
  ),
  // The general settings show the model picker once their data has come (a shared component, with 'chat' keys).
  ['/setting', 'settings:menu.general'],
];

test('the menu opens each page without falling back to the page skeleton', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('navigation'));
  await openSignedIn(page, token, '/profile');
  // From pages that load none of the next page's data: each page fetches its own after its code.
  for (const [from, key] of PAGES) {
    await page.goto(from);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Every skeleton that mounts from the click on is counted, however briefly it shows.
    await page.evaluate(() => {
      const seen = { skeletons: 0 };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of Array.from(change.addedNodes)) {
            if (!(node instanceof Element)) continue;
            if (node.matches('[data-testid="page-skeleton"]') || node.querySelector('[data-testid="page-skeleton"]')) {
              seen.skeletons += 1;
            }
          }
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const link = page.getByRole('navigation').getByRole('link', { name: tr('en', key), exact: true });
    const href = (await link.getAttribute('href'))!;
    const requests = requestsOf(page);
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    // Until nothing is loading: no loading indicator, and no request in flight for half a second.
    const indicators = page.locator('[data-testid="page-skeleton"], .fixed[role="status"]');
    await expect(indicators).toHaveCount(0);
    await requests.settled(500);
    await expect(indicators).toHaveCount(0);
    const { skeletons } = await page.evaluate(() => (window as unknown as { __seen: { skeletons: number } }).__seen);
    expect({ page: key, skeletons }).toEqual({ page: key, skeletons: 0 });
  }
});
