// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
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

describe('templates next to the AI reply', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  const templates = [
    {
      id: 't1',
      kind: 'mail',
      title: 'Confirm the venue',
      body: 'Hi {{first_name}},\n{{selection}} works.\n{{my_name}}',
    },
    { id: 't2', kind: 'message', title: 'Thanks for the post', body: 'Thanks!' },
    { id: 't3', kind: 'customReply', title: 'Decline politely', body: 'Decline, offer another week' },
  ].map((template) => ({ ...template, language: null }));

  async function setUp() {
    document.body.innerHTML = '<p id="quote">Lakeside Lodge</p><div class="editor" contenteditable="true"></div>';
    const page = onTestPage();
    await browser.storage.local.set({
      session: { signedIn: true, userId: 'u1', profile: { name: 'Alex Rivera' }, endReason: null },
    });
    const sent: Array<{ type: string; data: unknown }> = [];
    vi.mocked(browser.runtime.sendMessage).mockImplementation(async (message: unknown) => {
      const { type, data } = message as { type: string; data: unknown };
      sent.push({ type, data });
      if (type === 'GET_TEMPLATES') return { ok: true, data: { templates, signatures: [] } } as never;
      return { ok: true, data: { data: { text: 'The answer from the API' }, message: 'ok' } } as never;
    });
    const insertText = vi.fn<ReplySite['insertText']>(() => 'dom');
    const site = {
      ...fakeSite(insertText),
      readContext: () => ({ kind: 'mail' as const, author: 'Morgan Lee <morgan@example.org>', text: 'Can you come?' }),
    };
    const stop = startInstantReply(page.ctx, { site, endpoint: () => 'mailMessage', t });
    await settle();
    return { page, root: page.roots.at(-1)!, insertText, sent, stop };
  }

  it('lists the mail templates and custom replies; a person’s click inserts one filled in', async () => {
    const { page, root, insertText, sent, stop } = await setUp();
    const open = button(root, t('templates'));
    open.click();
    await settle();
    expect(sent).toEqual([]);

    // The person selected a venue on the page, then opened the templates.
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('#quote')!);
    document.getSelection()!.addRange(range);
    page.asPerson(open, 'pointerdown');
    page.asPerson(open, 'click');
    await settle();
    expect(sent.map((m) => m.type)).toEqual(['GET_TEMPLATES']);
    const names = Array.from(root.querySelectorAll<HTMLElement>('[data-parley=templates-panel] [data-text]')).map(
      (node) => node.dataset.text,
    );
    expect(names).toEqual([
      t('templatesTitle'),
      'Confirm the venue',
      t('customReplies'),
      'Decline politely',
      t('close'),
    ]);

    const item = button(root, 'Confirm the venue');
    item.click();
    await settle();
    expect(insertText).not.toHaveBeenCalled();
    page.asPerson(item, 'click');
    await settle();
    expect(insertText).toHaveBeenCalledWith(
      document.querySelector('.editor'),
      'Hi Morgan,\nLakeside Lodge works.\nAlex Rivera',
    );
    expect(root.querySelector<HTMLElement>('[data-parley=templates-panel]')!.hidden).toBe(true);
    stop();
  });

  it('a custom reply drafts an AI reply with its instruction (replyOption CUSTOM), and Regenerate keeps it', async () => {
    const { page, root, sent, stop } = await setUp();
    page.asPerson(button(root, t('templates')), 'click');
    await settle();
    page.asPerson(button(root, 'Decline politely'), 'click');
    await settle();
    const drafts = () => sent.filter((m) => m.type === 'API_CALL').map((m) => m.data);
    expect(drafts()).toEqual([
      {
        name: 'mailMessage',
        input: {
          body: expect.objectContaining({
            replyOption: 'CUSTOM',
            instruction: 'Decline, offer another week',
            thread: expect.any(String),
          }),
        },
      },
    ]);
    expect(root.querySelector<HTMLElement>('[data-parley=suggestion]')!.dataset.text).toBe('The answer from the API');
    page.asPerson(button(root, t('regenerate')), 'click');
    await settle();
    expect(drafts()).toHaveLength(2);
    expect((drafts()[1] as { input: { body: { replyOption: string } } }).input.body.replyOption).toBe('CUSTOM');
    // Reply with Parley is the plain reply again.
    page.asPerson(button(root, t('replyButton')), 'click');
    await settle();
    expect((drafts()[2] as { input: { body: Record<string, unknown> } }).input.body).not.toHaveProperty('instruction');
    stop();
  });

  it('says when there are none (signed out, or none of this kind)', async () => {
    const { page, root, stop } = await setUp();
    templates.splice(0, templates.length);
    page.asPerson(button(root, t('templates')), 'click');
    await settle();
    const shown = Array.from(root.querySelectorAll<HTMLElement>('[data-parley=templates-panel] p')).map(
      (p) => p.dataset.text,
    );
    expect(shown).toContain(t('noTemplates'));
    stop();
  });
});
