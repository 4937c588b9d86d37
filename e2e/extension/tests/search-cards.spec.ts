import { shot, tr } from '../../support.js';
import { allowClipboard, clipboardText, expect, onSite, signIn, test, URLS } from '../sites.js';

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
    const card = onSite(site, 'search', { within: engine.column });
    await expect.poll(() => card.text('.title')).toBe(tr('en', 'extension:onSite.searchTitle'));
    expect(await card.visible('.title')).toBe(true);
    const links = await card.links();
    expect(links).toContainEqual({
      name: 'Keeping basil fresh for a week – Herb Notes',
      href: 'https://herbs.example.org/basil-storage',
    });
    expect(links.length).toBeGreaterThanOrEqual(2);
    // Nothing is asked (no credit spent) until the person wants the answer.
    const answer = () => card.text('[data-parley=search-answer]');
    expect(await card.visible('[data-parley=search-answer]')).toBe(false);
    expect(await card.buttonNames()).not.toContain(tr('en', 'extension:onSite.copy'));
    await card.click(tr('en', 'extension:onSite.searchAsk'));
    await expect.poll(answer).toContain('You asked:');
    // The question and the numbered results went to the model as the page to summarize.
    expect(await answer()).toContain('how to store fresh basil');
    expect((await card.buttons()).map((b) => b.name)).not.toContain(tr('en', 'extension:onSite.searchAsk'));
    // The answer is drawn, not selectable: Copy puts it on the clipboard.
    await allowClipboard(context);
    await card.click(tr('en', 'extension:onSite.copy'));
    await expect.poll(() => card.buttonNames()).toContain(tr('en', 'extension:onSite.copied'));
    expect(await clipboardText(site)).toBe(await answer());
    await shot(site, `extension-search-${engine.name.toLowerCase()}`);
  });
}

test('DuckDuckGo outside the web results (an image search) gets no card', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.duckduckgo.replace('ia=web', 'ia=images&iax=images'));
  await expect(site.locator('section[data-testid=sidebar]')).toBeVisible();
  await site.waitForTimeout(800);
  expect(await onSite(site, 'search').count()).toBe(0);
});
