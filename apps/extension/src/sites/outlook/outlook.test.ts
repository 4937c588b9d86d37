// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/outlook/conversation-reply.html?raw';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { outlook } from './index.js';

describe('outlook', () => {
  beforeEach(() => loadFixture(html));

  it('matches the three Outlook hosts', () => {
    expect(outlook.match(new URL('https://outlook.office.com/mail/inbox/id/AAQk'))).toBe(true);
    expect(outlook.match(new URL('https://outlook.live.com/mail/0/'))).toBe(true);
    expect(outlook.match(new URL('https://outlook.office365.com/owa/'))).toBe(true);
    expect(outlook.match(new URL('https://outlook.com.evil.example/mail/'))).toBe(false);
    expect(outlook.matches).toHaveLength(3);
  });

  it('finds the compose body (not the To field), anchored after Send', () => {
    const targets = outlook.findReplyTargets(document);
    expect(targets).toHaveLength(1);
    expect(targets[0]?.editor.getAttribute('aria-label')).toBe('Message body, press Alt+F10 to exit');
    expect(targets[0]?.anchor.textContent).toBe('Send');
    expect(targets[0]?.kind).toBe('reply');
  });

  it('reads the conversation without the quoted originals', () => {
    const context = outlook.readContext(outlook.findReplyTargets(document)[0]!);
    expect(context).toMatchObject({ kind: 'mail', title: 'Invoice 2291 – payment date', author: 'Jordan Blake' });
    expect(context.text).toContain('From: Priya Shah <priya.shah@example.net>\nDate: Wed 3/5/2025 10:41 AM');
    expect(context.text).toContain('Our books close on March 14.');
    expect(context.text).toContain('I have asked accounts payable');
    expect(context.text.match(/is still open/g)).toHaveLength(1);
    expect(context.text).not.toContain('Operations'); // the draft's signature
  });

  it('inserts above the signature and quoted original; the draft registers it', () => {
    const { editor } = outlook.findReplyTargets(document)[0]!;
    expect(outlook.insertText(editor, 'Hi Priya,\nPayment goes out on March 12.')).toBe('dom');
    expect(editorState('body')?.text).toBe('Hi Priya,\nPayment goes out on March 12.');
    expect(editor.querySelector('#Signature')?.textContent).toContain('Jordan Blake');
    expect(editor.querySelector('#divRplyFwdMsg')).not.toBeNull();
  });

  it('puts a signature above the quoted original (#appendonsend)', () => {
    const [target] = outlook.findReplyTargets(document);
    expect((outlook.signatureSlot(target!.editor) as Element | null)?.id).toBe('appendonsend');
  });

  it('names the account writing: the account manager’s address, else the mailbox atop the folders, else none', () => {
    expect(outlook.accountAddress(document)).toBe('jordan.blake@example.com');
    document.querySelector('#mectrl_currentAccount_secondary')!.remove();
    const root = document.querySelector<HTMLElement>('[role="tree"] [aria-level="1"]')!;
    root.title = 'Jordan.Blake@Example.com';
    expect(outlook.accountAddress(document)).toBe('jordan.blake@example.com');
    // A sender's address in the reading pane is not the account.
    root.removeAttribute('title');
    expect(outlook.accountAddress(document)).toBeNull();
  });

  it('summarizes the open conversation', () => {
    expect(outlook.findSummaryAnchor(document)?.anchor.getAttribute('role')).toBe('heading');
    expect(outlook.readForSummary(document)?.text).toContain('Subject: Invoice 2291 – payment date');
  });
});
