// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { button, onTestPage, settle } from '../../test/test-page';
import { translator } from '../../ui/on-site/strings';
import { startSummaries } from './summaries';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const t = translator('en');

describe('Summarize on a hostile page', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('a page script’s click asks nothing; a person’s click shows the summary inside the closed root only', async () => {
    document.body.innerHTML = '<h2 id="subject">Invoice 2291</h2><div id="mail">Please pay by Friday.</div>';
    const page = onTestPage();
    const stop = startSummaries(
      page.ctx,
      {
        kind: 'mail',
        match: () => true,
        site: {
          findSummaryAnchor: (root) => ({ anchor: root.querySelector<HTMLElement>('#subject')!, placement: 'after' }),
          readForSummary: (root) => ({ kind: 'mail', text: root.querySelector('#mail')!.textContent! }),
        },
      },
      t,
    );
    await settle();
    const host = document.querySelector('#subject')!.nextElementSibling!;
    expect(host.shadowRoot).toBeNull();
    expect(host.attributes).toHaveLength(0);
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');
    const summarize = button(root, t('summarize'));
    // Nothing to copy before there is a summary.
    expect(button(root, t('copy')).disabled).toBe(true);

    summarize.click();
    summarize.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    expect(page.sentTypes()).toEqual([]);

    page.asPerson(summarize, 'click');
    await settle();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    expect(root.querySelector<HTMLElement>('[data-parley=summary]')!.dataset.text).toBe('The answer from the API');
    // Not even a text node inside it (window.find searches closed roots; see showText).
    expect(root.textContent).not.toContain('The answer from the API');
    expect(document.body.textContent).not.toContain('The answer from the API');

    // Copy: a page's click copies nothing; a person's copies the summary and says so.
    const copy = button(root, t('copy'));
    expect(copy.disabled).toBe(false);
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
