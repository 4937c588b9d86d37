// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/gmail/thread-reply.html?raw';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { gmail } from './index.js';

describe('gmail', () => {
  beforeEach(() => loadFixture(html));

  it('matches mail.google.com only', () => {
    expect(gmail.match(new URL('https://mail.google.com/mail/u/0/#inbox/FMfcgzQZTlxvBqWnKcDgFhRsTvMpLkJd'))).toBe(true);
    expect(gmail.match(new URL('https://www.google.com/mail/'))).toBe(false);
    expect(gmail.matches).toEqual(['https://mail.google.com/*']);
  });

  it('finds the inline reply and the compose window, anchored at Send', () => {
    const targets = gmail.findReplyTargets(document);
    expect(targets.map((t) => [t.editor.id, t.kind, t.placement])).toEqual([
      [':8n', 'reply', 'after'],
      [':9n', 'compose', 'after'],
    ]);
    expect(targets[0]?.anchor.matches('td.gU.Up')).toBe(true);
  });

  it('reads the thread for a reply: subject, senders, messages, no quoted history or hidden text', () => {
    const [reply] = gmail.findReplyTargets(document);
    const context = gmail.readContext(reply!);
    expect(context).toMatchObject({ kind: 'mail', title: 'Team offsite – venue shortlist', author: 'Morgan Lee' });
    expect(context.text).toContain('Subject: Team offsite – venue shortlist');
    expect(context.text).toContain('From: Morgan Lee <morgan.lee@example.org>\nDate: Tue, Mar 4, 2025, 4:02 PM');
    expect(context.text).toContain('Lakeside Lodge – 40 people, €95 per person, free shuttle');
    expect(context.text).toContain('Hi all, we need a venue for the June offsite.'); // the collapsed message's snippet
    expect(context.text.match(/Hi all, we need a venue/g)).toHaveLength(1); // not again from the quote
    expect(context.text).not.toContain('Hidden trimmed content');
    expect(context.text).not.toContain('Alex Rivera'); // the draft's signature is not thread content
  });

  it('reads a new compose window as its own mail, not the open thread', () => {
    const compose = gmail.findReplyTargets(document)[1]!;
    expect(gmail.readContext(compose)).toEqual({ kind: 'mail', title: 'Catering quote for June', text: '' });
  });

  it('inserts before the signature and Gmail registers it through input', () => {
    const [reply] = gmail.findReplyTargets(document);
    const method = gmail.insertText(reply!.editor, 'Hi Morgan,\n\nLakeside Lodge fits.\nAlex');
    expect(method).toBe('dom'); // jsdom has no execCommand; Chromium takes 'exec-command'
    expect(editorState(':8n')?.text).toBe('Hi Morgan,\n\nLakeside Lodge fits.\nAlex'.replace('\n\n', '\n'));
    expect(reply!.editor.querySelector('.gmail_signature')?.textContent).toBe('Alex RiveraEvents team');
    expect(reply!.editor.firstElementChild?.textContent).toBe('Hi Morgan,');
  });

  it('names the account writing (from the title) and puts a signature above an expanded quote, else at the end', () => {
    expect(gmail.accountAddress(document)).toBe('alex.rivera@example.com');
    document.title = 'Inbox (3) - Alex <x> - Gmail';
    expect(gmail.accountAddress(document)).toBeNull();
    const [reply] = gmail.findReplyTargets(document);
    expect(gmail.signatureSlot(reply!.editor)).toBeNull();
    const quote = document.createElement('div');
    quote.innerHTML = '<div class="gmail_quote">On Tue, Morgan wrote:</div>';
    reply!.editor.append(quote);
    expect(gmail.signatureSlot(reply!.editor)).toBe(quote);
  });

  it('keeps Parley’s signature when a reply is inserted', () => {
    const [, compose] = gmail.findReplyTargets(document);
    compose!.editor.innerHTML = '<div>draft</div><div data-parley-signature=""><div><br></div>Alex</div>';
    gmail.insertText(compose!.editor, 'Catering for 40, please.');
    expect(compose!.editor.innerHTML).toBe(
      '<div>Catering for 40, please.</div><div data-parley-signature=""><div><br></div>Alex</div>',
    );
  });

  it('gives the summary the open thread and an anchor beside the subject', () => {
    expect(gmail.findSummaryAnchor(document)?.anchor.className).toBe('ha');
    const summary = gmail.readForSummary(document);
    expect(summary?.title).toBe('Team offsite – venue shortlist');
    expect(summary?.text).toContain('Could you confirm which one fits the budget by Friday?');
    document.querySelector('[role="main"]')!.innerHTML = '<div class="ae4">Inbox list</div>';
    expect(gmail.readForSummary(document)).toBeNull();
  });
});
