// @vitest-environment jsdom
// @vitest-environment-options { "url": "https://www.google.com/search?q=how+to+store+fresh+basil" }
import { afterEach, describe, expect, it, vi } from 'vitest';
import googleHtml from '../../../fixtures/sites/search/google.html?raw';
import { loadFixture } from '../../sites/shared/load-fixture';
import { button, onTestPage, settle } from '../../test/test-page';
import { translator } from '../../ui/on-site/strings';
import { startSearchCard } from './search-ai';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const t = translator('en');

describe('Search with AI on a hostile page', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('the card is in a closed root; only a person’s click on its button spends a credit', async () => {
    loadFixture(googleHtml);
    const page = onTestPage();
    const stop = startSearchCard(page.ctx, t);
    await settle();
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');
    expect(root.host.shadowRoot).toBeNull();
    expect(root.host.attributes).toHaveLength(0);
    const ask = button(root, t('searchAsk'));
    // Copy comes with the answer.
    expect(button(root, t('copy')).hidden).toBe(true);

    ask.click();
    root.host.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    expect(page.sentTypes()).toEqual([]);

    page.asPerson(ask, 'click');
    await settle();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    expect(root.querySelector<HTMLElement>('[data-parley=search-answer]')!.dataset.text).toBe(
      'The answer from the API',
    );
    // Not even a text node inside it (window.find searches closed roots; see showText).
    expect(root.textContent).not.toContain('The answer from the API');
    expect(document.body.textContent).not.toContain('The answer from the API');

    const copy = button(root, t('copy'));
    expect(copy.hidden).toBe(false);
    copy.click();
    await settle();
    expect(page.copied).toEqual([]);
    page.asPerson(copy, 'click');
    await settle();
    expect(page.copied).toEqual(['The answer from the API']);
    expect(copy.dataset.text).toBe(t('copied'));
    stop();
  });
});
