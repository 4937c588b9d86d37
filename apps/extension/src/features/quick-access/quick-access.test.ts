// @vitest-environment jsdom
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { button, onTestPage, settle } from '../../test/test-page';
import { isParleyHost } from '../../ui/on-site/hosts';
import { translator } from '../../ui/on-site/strings';
import { closeQuickAccess, openBox, showMenu } from './quick-access';
import type { QuickAccessGlobal } from './shortcut';
import { quickAccessParts } from './triggers';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const t = translator('en');
const ANSWER = 'The answer from the API';

/** A text field with its text selected, as after a person's selection. */
function selectInField(text: string): HTMLTextAreaElement {
  const field = document.createElement('textarea');
  field.value = text;
  document.body.append(field);
  field.focus();
  field.setSelectionRange(0, text.length);
  return field;
}

const shortcut = { key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true, altKey: false, metaKey: false };

describe('quick access on a hostile page', () => {
  afterEach(() => {
    closeQuickAccess();
    delete (globalThis as QuickAccessGlobal).__parleyQuickAccess;
    document.body.replaceChildren();
  });

  it('a page’s synthetic mouseup after its own selection, or its synthetic shortcut, opens nothing', async () => {
    const page = onTestPage();
    const qa = { showMenu: vi.fn(), openBox: vi.fn(), close: vi.fn() };
    (globalThis as QuickAccessGlobal).__parleyQuickAccess = qa;
    const state = {
      settings: DEFAULT_SETTINGS,
      disabled: false,
      language: 'en',
      signedIn: false,
      shortcuts: null,
      shortcutTrigger: ';',
    };
    const stops = quickAccessParts(page.ctx).map((part) => part.start('en', DEFAULT_SETTINGS, state));
    selectInField('we leave early tomorrow');

    document.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    document.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, shiftKey: true }));
    document.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...shortcut }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(qa.showMenu).not.toHaveBeenCalled();
    expect(qa.openBox).not.toHaveBeenCalled();

    page.asPerson(document, 'mouseup');
    page.asPerson(document, 'keydown', shortcut);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(qa.showMenu).toHaveBeenCalledTimes(1);
    expect(qa.openBox).toHaveBeenCalledTimes(1);
    for (const stop of stops) stop();
  });

  it('the mini menu: closed root, a page’s clicks neither ask nor insert, a person’s do', async () => {
    const page = onTestPage();
    const field = selectInField('we leave early tomorrow');
    await showMenu(page.ctx, t);
    const host = document.body.lastElementChild!;
    expect(isParleyHost(host)).toBe(true);
    expect(host.shadowRoot).toBeNull();
    expect(host.attributes).toHaveLength(0);
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');

    for (const action of ['explain', 'summarize', 'rewrite', 'translate', 'replyAction'] as const) {
      button(root, t(action)).click();
    }
    await settle();
    expect(page.sentTypes()).toEqual([]);

    page.asPerson(button(root, t('rewrite')), 'click');
    await settle();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    expect(root.querySelector<HTMLElement>('[data-parley=quick-result]')!.dataset.text).toBe(ANSWER);
    // Not even a text node inside it (window.find searches closed roots; see showText).
    expect(root.textContent).not.toContain(ANSWER);
    expect(document.body.textContent).not.toContain(ANSWER);

    button(root, t('copy')).click();
    await settle();
    expect(page.copied).toEqual([]);
    page.asPerson(button(root, t('copy')), 'click');
    await settle();
    expect(page.copied).toEqual([ANSWER]);

    button(root, t('insert')).click();
    expect(field.value).toBe('we leave early tomorrow');
    page.asPerson(button(root, t('insert')), 'click');
    expect(field.value).toBe(ANSWER);
    expect(host.isConnected).toBe(false);
  });

  it('the box: a page’s Enter or click on Ask asks nothing; a person’s Enter does', async () => {
    const page = onTestPage();
    await openBox(page.ctx, t);
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');
    const input = root.querySelector('input')!;
    input.value = 'When do the boats leave?';

    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    button(root, t('ask')).click();
    await settle();
    expect(page.sentTypes()).toEqual([]);

    page.asPerson(input, 'keydown', { key: 'Enter', isComposing: false });
    await settle();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    expect(root.querySelector<HTMLElement>('[data-parley=quick-result]')!.dataset.text).toBe(ANSWER);
  });
});
