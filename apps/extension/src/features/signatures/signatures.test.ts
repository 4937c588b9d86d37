// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SignatureItem } from '../../platform/storage/templates-store';
import { gmail } from '../../sites/gmail/index';
import { editorState, loadFixture } from '../../sites/shared/load-fixture';
import { onTestPage, settle } from '../../test/test-page';
import html from '../../../fixtures/sites/gmail/thread-reply.html?raw';
import { appendSignature, pickSignature, SIGNATURE_ATTRIBUTE, startSignatures } from './signatures';

vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const work: SignatureItem = {
  id: 's1',
  name: 'Work',
  html: '<p><b>Alex Rivera</b></p><p>Events team · <a href="https://example.com">example.com</a></p>',
  defaultFor: ['gmail'],
};
const personal: SignatureItem = { id: 's2', name: 'Personal', html: '<p>Alex</p>', defaultFor: ['ALEX@home.example'] };
const outlookOnly: SignatureItem = { id: 's3', name: 'Outlook', html: '<p>A. Rivera</p>', defaultFor: ['outlook'] };

describe('pickSignature', () => {
  it('prefers the account’s address, then the site, else none', () => {
    const all = [work, personal, outlookOnly];
    expect(pickSignature(all, 'gmail', 'alex@home.example')?.id).toBe('s2');
    expect(pickSignature(all, 'gmail', 'other@example.com')?.id).toBe('s1');
    expect(pickSignature(all, 'gmail', null)?.id).toBe('s1');
    expect(pickSignature(all, 'outlook', null)?.id).toBe('s3');
    expect(pickSignature([personal], 'outlook', null)).toBeNull();
  });
});

describe('appendSignature', () => {
  afterEach(() => document.body.replaceChildren());

  it('adds the signature once, marked, before the quoted original, and tells the site', () => {
    document.body.innerHTML =
      '<div id="e" contenteditable="true"><div><br></div><div class="gmail_quote">On Monday, Morgan wrote:</div></div>';
    const editor = document.querySelector<HTMLElement>('#e')!;
    const inputs = vi.fn();
    editor.addEventListener('input', inputs);
    const quote = editor.querySelector('.gmail_quote')!;
    expect(appendSignature(editor, work, quote)).toBe(true);
    const added = editor.querySelector(`[${SIGNATURE_ATTRIBUTE}]`)!;
    expect(added.nextElementSibling).toBe(quote);
    expect(added.innerHTML).toBe(
      '<div><br></div><p><b>Alex Rivera</b></p><p>Events team · <a href="https://example.com/">example.com</a></p>',
    );
    expect(inputs).toHaveBeenCalledTimes(1);
    // Inserting again, or another signature: nothing more.
    expect(appendSignature(editor, work, quote)).toBe(false);
    expect(appendSignature(editor, personal, null)).toBe(false);
    expect(editor.querySelectorAll(`[${SIGNATURE_ATTRIBUTE}]`)).toHaveLength(1);
    expect(inputs).toHaveBeenCalledTimes(1);
  });

  it('adds nothing to a reopened draft that shows the signature without its mark, or for an empty signature', () => {
    document.body.innerHTML =
      '<div id="e" contenteditable="true"><div>Hi</div><div><p><b>Alex Rivera</b></p><p>Events team ·  example.com</p></div></div>';
    const editor = document.querySelector<HTMLElement>('#e')!;
    expect(appendSignature(editor, work, null)).toBe(false);
    expect(appendSignature(editor, { ...work, html: '<script>x</script>' }, null)).toBe(false);
    expect(editor.querySelector(`[${SIGNATURE_ATTRIBUTE}]`)).toBeNull();
  });
});

describe('signatures on Gmail', () => {
  afterEach(() => document.body.replaceChildren());

  it('each reply box gets the default signature once; a reply inserted later keeps it; a box reopened is not given it again', async () => {
    loadFixture(html);
    const page = onTestPage();
    // jsdom's page is not at mail.google.com.
    const site = { ...gmail, match: () => true };
    const stop = startSignatures(page.ctx, { site, load: async () => ({ templates: [], signatures: [work] }) });
    await settle();
    const [reply, compose] = gmail.findReplyTargets(document);
    for (const target of [reply!, compose!]) {
      expect(target.editor.querySelectorAll(`[${SIGNATURE_ATTRIBUTE}]`)).toHaveLength(1);
    }
    // Gmail's draft model heard it.
    expect(editorState(':8n')?.text).toContain('Alex Rivera');

    gmail.insertText(reply!.editor, 'Lakeside Lodge fits the budget.');
    expect(reply!.editor.firstElementChild?.textContent).toBe('Lakeside Lodge fits the budget.');
    expect(reply!.editor.querySelectorAll(`[${SIGNATURE_ATTRIBUTE}]`)).toHaveLength(1);

    // The box closed and opened again (a new editor with the draft, as the site restores it).
    const reopened = reply!.editor.cloneNode(true) as HTMLElement;
    reply!.editor.replaceWith(reopened);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(reopened.querySelectorAll(`[${SIGNATURE_ATTRIBUTE}]`)).toHaveLength(1);
    stop();
  });

  it('asks for the signatures only when a box appears, once', async () => {
    document.body.innerHTML = '<div role="main"><p>Inbox</p></div>';
    const page = onTestPage();
    const load = vi.fn(async () => ({ templates: [], signatures: [work] }));
    const stop = startSignatures(page.ctx, { site: { ...gmail, match: () => true }, load });
    await settle();
    expect(load).not.toHaveBeenCalled();
    document.body.insertAdjacentHTML(
      'beforeend',
      '<div class="editable" contenteditable="true" role="textbox"></div><div g_editable="true" contenteditable="true"></div>',
    );
    await vi.waitFor(() => expect(document.querySelectorAll(`[${SIGNATURE_ATTRIBUTE}]`)).toHaveLength(2), {
      timeout: 2000,
    });
    expect(load).toHaveBeenCalledTimes(1);
    stop();
  });
});
