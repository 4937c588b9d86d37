// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/x/status-reply.html?raw';
import { insertText } from '../shared/insert.js';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { x } from './index.js';

describe('x', () => {
  beforeEach(() => loadFixture(html));

  it('matches x.com and twitter.com', () => {
    expect(x.match(new URL('https://x.com/lunar_garden_ex/status/1897000000000000001'))).toBe(true);
    expect(x.match(new URL('https://twitter.com/home'))).toBe(true);
    expect(x.match(new URL('https://x.com.example.net/'))).toBe(false);
    expect(x.matches).toContain('https://x.com/*');
  });

  it('finds the DraftJS reply box, anchored before the Reply button', () => {
    const targets = x.findReplyTargets(document);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({ kind: 'reply', placement: 'before' });
    expect(targets[0]?.anchor.getAttribute('data-testid')).toBe('tweetButtonInline');
  });

  it('reads the post being replied to, with the thread above it, line breaks kept', () => {
    const context = x.readContext(x.findReplyTargets(document)[0]!);
    expect(context.kind).toBe('post');
    expect(context.author).toBe('Lunar Garden');
    expect(context.text).toContain('Earlier in the thread:\nLunar Garden (@lunar_garden_ex): Balcony garden update');
    expect(context.text).toContain(
      'Replying to:\nLunar Garden (@lunar_garden_ex): Our first basil harvest from the balcony 🌿\nPesto tonight.',
    );
    expect(context.text).not.toContain('Pinch the tops'); // a reply below the box
  });

  it('inserts by paste; DraftJS registers it as blocks and enables Reply', () => {
    const { editor } = x.findReplyTargets(document)[0]!;
    expect(x.insertText(editor, 'Pinch above a leaf pair.\nAnd harvest often!')).toBe('paste');
    expect(editorState('reply')?.text).toBe('Pinch above a leaf pair.\nAnd harvest often!');
    expect(editor.querySelectorAll('[data-block="true"]')).toHaveLength(2);
    expect(document.querySelector<HTMLButtonElement>('[data-testid="tweetButtonInline"]')?.disabled).toBe(false);
    // Replaces rather than appends, because the selection was announced before the paste.
    x.insertText(editor, 'Shorter reply.');
    expect(editorState('reply')?.text).toBe('Shorter reply.');
  });

  it('a synthetic beforeinput is not registered by DraftJS (why X starts with paste)', () => {
    const { editor } = x.findReplyTargets(document)[0]!;
    expect(insertText(editor, 'ignored', { strategies: ['beforeinput'] })).toBeNull();
    expect(editorState('reply')).toBeUndefined();
  });
});
