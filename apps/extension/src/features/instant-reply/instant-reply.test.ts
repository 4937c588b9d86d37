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

  let pickerOpens = true;

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
      if (type === 'OPEN_TEMPLATE_PICKER') return { ok: true, data: { opened: pickerOpens } } as never;
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
      t('moreTemplates'),
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

  it('More templates… opens the picker; what is chosen there goes into this box, once, and only for this request', async () => {
    const { page, root, insertText, sent, stop } = await setUp();
    page.asPerson(button(root, t('templates')), 'click');
    await settle();
    const more = button(root, t('moreTemplates'));
    more.click();
    await settle();
    expect(sent.map((m) => m.type)).toEqual(['GET_TEMPLATES']);
    page.asPerson(more, 'click');
    await settle();
    const ask = sent.find((m) => m.type === 'OPEN_TEMPLATE_PICKER')!;
    const { request } = ask.data as { request: string };
    expect(request).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(root.querySelector<HTMLElement>('[data-parley=templates-panel]')!.hidden).toBe(true);

    // The background hands the choice back (TEMPLATE_PICKED): only our own background is listened to.
    const picked = { ...templates[0]!, id: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01', language: null };
    const background = { id: browser.runtime.id, url: browser.runtime.getURL('/background.js') };
    // WXT's fake browser lets a test fire runtime.onMessage as the browser would.
    const onMessage = browser.runtime.onMessage as unknown as { trigger(...args: unknown[]): Promise<unknown> };
    const pick = (data: unknown, sender: object = background) =>
      new Promise((resolve) => onMessage.trigger({ parley: 1, type: 'TEMPLATE_PICKED', data }, sender, resolve));
    expect(
      await pick(
        { request, template: picked },
        { id: browser.runtime.id, url: 'https://mail.google.com/', tab: { id: 3 } },
      ),
    ).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'FORBIDDEN' }),
    });
    expect(await pick({ request: crypto.randomUUID(), template: picked })).toEqual({ ok: true, data: { used: false } });
    expect(await pick({ request, template: { ...picked, kind: 'signature' } })).toEqual({
      ok: true,
      data: { used: false },
    });
    expect(insertText).not.toHaveBeenCalled();
    expect(await pick({ request, template: picked })).toEqual({ ok: true, data: { used: true } });
    expect(insertText).toHaveBeenCalledWith(document.querySelector('.editor'), expect.stringContaining('Hi Morgan,'));
    // Once: the same choice again, or a replay, goes nowhere.
    expect(await pick({ request, template: picked })).toEqual({ ok: true, data: { used: false } });
    expect(insertText).toHaveBeenCalledTimes(1);
    stop();
  });

  it('says so when the picker did not open', async () => {
    pickerOpens = false;
    const { page, root, stop } = await setUp();
    page.asPerson(button(root, t('templates')), 'click');
    await settle();
    page.asPerson(button(root, t('moreTemplates')), 'click');
    await settle();
    expect(root.querySelector<HTMLElement>('[data-parley=suggestion]')!.dataset.text).toBe(t('pickerFailed'));
    pickerOpens = true;
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
