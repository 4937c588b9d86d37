// @vitest-environment jsdom
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onTestPage, settle } from '../../test/test-page';
import type { LiveState } from '../../ui/on-site/live';
import { shortcutsPart, type ShortcutsGlobal } from './part';

vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const items = [{ key: 'thx', text: 'Thank you!' }];
const state = (change: Partial<LiveState> = {}): LiveState => ({
  settings: DEFAULT_SETTINGS,
  disabled: false,
  language: 'en',
  signedIn: true,
  shortcuts: { userId: 'u1', fetchedAt: Date.now(), items },
  shortcutTrigger: ';',
  ...change,
});
const global = globalThis as ShortcutsGlobal;

/** jsdom has no idle callbacks: these run them when the test says so. */
let idle: Array<() => void> = [];
beforeEach(() => {
  idle = [];
  vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
  vi.stubGlobal('cancelIdleCallback', (id: number) => {
    idle[id - 1] = () => undefined;
  });
});

describe('the shortcuts part of every page', () => {
  afterEach(() => {
    delete global.__parleyShortcuts;
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  it('runs only signed in with at least one shortcut, and restarts when the trigger or the list changes', () => {
    const part = shortcutsPart(onTestPage().ctx);
    expect(part.on(DEFAULT_SETTINGS, state())).toBe(true);
    expect(part.on(DEFAULT_SETTINGS, state({ signedIn: false }))).toBe(false);
    expect(part.on(DEFAULT_SETTINGS, state({ shortcuts: null }))).toBe(false);
    expect(part.on(DEFAULT_SETTINGS, state({ shortcuts: { userId: 'u1', fetchedAt: 0, items: [] } }))).toBe(false);
    const key = (s: LiveState) => JSON.stringify(part.uses!(DEFAULT_SETTINGS, s));
    expect(key(state())).not.toBe(key(state({ shortcutTrigger: '//' })));
    expect(key(state())).toBe(key(state({ shortcuts: { userId: 'u1', fetchedAt: 1, items } })));
  });

  it('loads the expansion code when the person goes to type in a text field, before the page is idle', async () => {
    document.body.innerHTML = '<textarea></textarea><p>text</p>';
    const page = onTestPage();
    const stopModule = vi.fn();
    const start = vi.fn(() => stopModule);
    const stop = shortcutsPart(page.ctx).start('en', DEFAULT_SETTINGS, state());
    // Stands in for shortcuts.js having been imported (the import itself needs the extension's URL).
    global.__parleyShortcuts = { start };
    await settle();
    expect(start).not.toHaveBeenCalled();

    page.asPerson(document, 'keydown', { composedPath: () => [document.querySelector('p')] });
    document.querySelector('textarea')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    await settle();
    expect(start).not.toHaveBeenCalled();

    page.asPerson(document, 'focusin', { composedPath: () => [document.querySelector('textarea')] });
    await settle();
    expect(start).toHaveBeenCalledWith({ shortcuts: items, trigger: ';' });
    expect(page.sentTypes()).toEqual([]);
    // Once: the idle callback was cancelled.
    idle.forEach((run) => run());
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
    stop();
    expect(stopModule).toHaveBeenCalled();
  });

  it('else loads it when the page is idle', async () => {
    const page = onTestPage();
    const start = vi.fn(() => () => undefined);
    const stop = shortcutsPart(page.ctx).start('en', DEFAULT_SETTINGS, state());
    global.__parleyShortcuts = { start };
    await settle();
    expect(start).not.toHaveBeenCalled();
    idle.forEach((run) => run());
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
    stop();
  });

  it('asks the background to refetch stale shortcuts, once per start', async () => {
    const page = onTestPage();
    global.__parleyShortcuts = { start: () => () => undefined };
    const stop = shortcutsPart(page.ctx).start(
      'en',
      DEFAULT_SETTINGS,
      state({ shortcuts: { userId: 'u1', fetchedAt: Date.now() - 6 * 60_000, items } }),
    );
    await settle();
    expect(page.sentTypes()).toEqual(['REFRESH_TEMPLATES']);
    stop();
  });
});
