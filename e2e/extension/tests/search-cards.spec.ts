import { shot, tr } from '../../support.js';
import { expect, parley, signIn, test, URLS } from '../sites.js';

const ENGINES = [
  { name: 'Bing', url: URLS.bing, column: '#b_context' },
  { name: 'DuckDuckGo', url: URLS.duckduckgo, column: 'section[data-testid=sidebar]' },
] as const;

for (const engine of ENGINES) {
  test(`${engine.name}: the Search with AI card lists the sources and answers on click`, async ({
    context,
    page,
    storage,
  }) => {
    await signIn(page, storage);
    const site = await context.newPage();
    await site.goto(engine.url);
    const card = site.locator(`${engine.column} parley-search`);
    await expect(card.getByText(tr('en', 'extension:onSite.searchTitle'))).toBeVisible();
    await expect(card.getByRole('link', { name: 'Keeping basil fresh for a week – Herb Notes' })).toHaveAttribute(
      'href',
      'https://herbs.example.org/basil-storage',
    );
    expect(await card.getByRole('link').count()).toBeGreaterThanOrEqual(2);
    // Nothing is asked (no credit spent) until the person wants the answer.
    const answer = card.locator('[data-parley=search-answer]');
    await expect(answer).toBeHidden();
    await card.getByRole('button', { name: tr('en', 'extension:onSite.searchAsk') }).click();
    await expect(answer).toContainText('You asked:');
    // The question and the numbered results went to the model as the page to summarize.
    await expect(answer).toContainText('how to store fresh basil');
    await expect(card.getByRole('button', { name: tr('en', 'extension:onSite.searchAsk') })).toHaveCount(0);
    await shot(site, `extension-search-${engine.name.toLowerCase()}`);
  });
}

test('DuckDuckGo outside the web results (an image search) gets no card', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.duckduckgo.replace('ia=web', 'ia=images&iax=images'));
  await expect(site.locator('section[data-testid=sidebar]')).toBeVisible();
  await site.waitForTimeout(800);
  await expect(parley(site, 'search')).toHaveCount(0);
});
