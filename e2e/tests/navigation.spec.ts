import { expect, test, type Page, type Request } from '@playwright/test';
import { apiSignUp, openSignedIn, tr, uniqueEmail } from '../support';

/**
 * Going from page to page with the menu: the page one leaves stays until the next can show (the navigation waits for
 * its code and its translations), and the next never falls back to the page skeleton on its way. A part that loaded
 * its translations only once its data had come (the plan chooser) would suspend then, show the skeleton, and be held
 * back 300 ms by React before it showed.
 */
const PAGES = ['subscription', 'organization', 'templates', 'imageGeneration', 'imageEditor', 'chat', 'home'];

/** Until nothing is loading: no request in flight and no loading indicator, for half a second. */
async function settled(page: Page) {
  const inFlight = new Set<Request>();
  let quietSince = Date.now();
  const start = (request: Request) => inFlight.add(request);
  const end = (request: Request) => {
    inFlight.delete(request);
    quietSince = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    for (let i = 0; i < 200; i++) {
      const loading = await page.locator('[data-testid="page-skeleton"], .fixed[role="status"]').count();
      if (inFlight.size === 0 && loading === 0 && Date.now() - quietSince >= 500) return;
      await page.waitForTimeout(50);
    }
    throw new Error(
      `${page.url()} never stopped loading: ${[...inFlight].map((r) => r.url()).join(', ')}, ${await page.locator('[data-testid="page-skeleton"], .fixed[role="status"]').count()} loading indicators`,
    );
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

test('the menu opens each page without falling back to the page skeleton', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('navigation'));
  await openSignedIn(page, token, '/profile');
  for (const key of PAGES) {
    // From the profile, which loads no other page's data: each page below fetches its own after its code.
    await page.goto('/profile');
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
    const link = page.getByRole('navigation').getByRole('link', { name: tr('en', `shell:menu.${key}`) });
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    await settled(page);
    const { skeletons } = await page.evaluate(() => (window as unknown as { __seen: { skeletons: number } }).__seen);
    expect({ page: key, skeletons }).toEqual({ page: key, skeletons: 0 });
  }
});
