// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onTestPage, settle } from '../../test/test-page';
import { COPIED_MS, copyButton } from './copy';
import { translator } from './strings';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

describe('copyButton', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('copies on a person’s click only, says Copied for a moment, in the on-site language', async () => {
    const page = onTestPage();
    const t = translator('fr');
    let text = '';
    const copy = copyButton(t, () => text);
    expect(copy.dataset.text).toBe('Copier');
    expect(copy.type).toBe('button');

    page.asPerson(copy, 'click');
    await settle();
    expect(page.copied).toEqual([]);

    text = 'Réponse';
    copy.click();
    copy.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    expect(page.copied).toEqual([]);

    vi.useFakeTimers();
    page.asPerson(copy, 'click');
    await vi.waitFor(() => expect(copy.dataset.text).toBe('Copié'));
    expect(page.copied).toEqual(['Réponse']);
    vi.advanceTimersByTime(COPIED_MS);
    expect(copy.dataset.text).toBe('Copier');
  });

  it('when the browser refuses the clipboard, the button keeps saying Copy', async () => {
    const page = onTestPage();
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new DOMException('Document is not focused.', 'NotAllowedError')) },
    });
    const t = translator('en');
    const copy = copyButton(t, () => 'An answer');
    page.asPerson(copy, 'click');
    await settle();
    expect(copy.dataset.text).toBe(t('copy'));
  });
});
