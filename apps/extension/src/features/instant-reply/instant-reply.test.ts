// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReplySite } from '../../sites/shared/types';
import { button, onTestPage, settle } from '../../test/test-page';
import { isParleyHost } from '../../ui/on-site/hosts';
import { translator } from '../../ui/on-site/strings';
import { startInstantReply } from './instant-reply';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const t = translator('en');

function fakeSite(insertText: ReplySite['insertText']): ReplySite {
  return {
    id: 'gmail',
    matches: [],
    match: () => true,
    findReplyTargets: (root) =>
      Array.from(root.querySelectorAll<HTMLElement>('.editor')).map((editor) => ({
        editor,
        anchor: editor,
        placement: 'after' as const,
        kind: 'reply' as const,
      })),
    readContext: () => ({ kind: 'mail', text: 'Can you come on Friday?' }),
    insertText,
  };
}

describe('instant reply on a hostile page', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('mounts in a closed shadow root on a bare host; only a person’s clicks draft and insert', async () => {
    document.body.innerHTML = '<div class="editor" contenteditable="true"></div>';
    const page = onTestPage();
    const insertText = vi.fn<ReplySite['insertText']>(() => 'dom');
    const stop = startInstantReply(page.ctx, { site: fakeSite(insertText), endpoint: () => 'mailMessage', t });
    await settle();

    const host = document.querySelector('.editor')!.nextElementSibling!;
    expect(isParleyHost(host)).toBe(true);
    expect(host.shadowRoot).toBeNull();
    expect(host.attributes).toHaveLength(0);
    expect(host.localName).toMatch(/^[a-z]{4,7}-[a-z]{4,7}$/);
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');
    const open = button(root, t('replyButton'));

    // What a page script can do with any element it holds: nothing is asked, nothing is inserted.
    open.click();
    host.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    await settle();
    expect(page.sentTypes()).toEqual([]);
    expect(root.querySelector<HTMLElement>('[data-parley=reply-panel]')!.hidden).toBe(true);

    page.asPerson(open, 'click');
    await settle();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    expect(root.querySelector<HTMLElement>('[data-parley=suggestion]')!.dataset.text).toBe('The answer from the API');
    // The answer is in the closed root only.
    // Not even a text node inside it (window.find searches closed roots; see showText).
    expect(root.textContent).not.toContain('The answer from the API');
    expect(document.body.textContent).not.toContain('The answer from the API');

    // Copy gives the person the suggestion they cannot select; a page's click copies nothing.
    const copy = button(root, t('copy'));
    copy.click();
    await settle();
    expect(page.copied).toEqual([]);
    page.asPerson(copy, 'click');
    await settle();
    expect(page.copied).toEqual(['The answer from the API']);
    expect(copy.dataset.text).toBe(t('copied'));

    const insert = button(root, t('insert'));
    insert.click();
    button(root, t('regenerate')).click();
    await settle();
    expect(insertText).not.toHaveBeenCalled();
    expect(page.sentTypes()).toEqual(['API_CALL']);
    page.asPerson(insert, 'click');
    expect(insertText).toHaveBeenCalledWith(document.querySelector('.editor'), 'The answer from the API');
    stop();
  });
});
