// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { ContentScriptContext } from './script-context';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

/** WXT's own class, which ours extends. */
const WxtContext = Object.getPrototypeOf(ContentScriptContext) as typeof ContentScriptContext;
/** The event name WXT's class listens for (private in its types). */
const STARTED = (WxtContext as unknown as { SCRIPT_STARTED_MESSAGE_TYPE: string }).SCRIPT_STARTED_MESSAGE_TYPE;

describe('the content scripts’ context', () => {
  it('tells the page nothing when a content script starts (WXT’s own posts a message naming the extension)', () => {
    const posted = vi.spyOn(window, 'postMessage');
    const dispatched = vi.spyOn(document, 'dispatchEvent');
    new WxtContext('page');
    expect(posted).toHaveBeenCalledWith(
      expect.objectContaining({ type: expect.stringContaining(browser.runtime.id), contentScriptName: 'page' }),
      '*',
    );
    posted.mockClear();
    dispatched.mockClear();

    const ctx = new ContentScriptContext('page');
    expect(posted).not.toHaveBeenCalled();
    expect(dispatched).not.toHaveBeenCalled();
    expect(ctx.isValid).toBe(true);
  });

  it('an event a page fires in WXT’s name does not switch it off (it does switch WXT’s own off)', () => {
    const theirs = new WxtContext('page');
    const ours = new ContentScriptContext('page');
    const stopped = vi.fn();
    ours.onInvalidated(stopped);
    document.dispatchEvent(
      new CustomEvent(STARTED, {
        detail: { contentScriptName: 'page', messageId: 'made-up-by-the-page' },
      }),
    );
    expect(theirs.isValid).toBe(false);
    expect(stopped).not.toHaveBeenCalled();
    expect(ours.isValid).toBe(true);
  });

  it('an orphaned copy (its extension context gone) stops on its own at its next check', () => {
    const ctx = new ContentScriptContext('page');
    const stopped = vi.fn();
    ctx.onInvalidated(stopped);
    vi.spyOn(browser.runtime, 'id', 'get').mockReturnValue(undefined as unknown as string);
    expect(ctx.isValid).toBe(false);
    expect(stopped).toHaveBeenCalledTimes(1);
  });
});
