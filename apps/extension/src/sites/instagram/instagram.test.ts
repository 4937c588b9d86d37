// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/instagram/post.html?raw';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { instagram } from './index.js';

describe('instagram', () => {
  beforeEach(() => loadFixture(html));

  it('matches www.instagram.com', () => {
    expect(instagram.match(new URL('https://www.instagram.com/p/C4xAmPlE123/'))).toBe(true);
    expect(instagram.match(new URL('http://www.instagram.com/p/C4xAmPlE123/'))).toBe(false);
  });

  it('finds the comment textarea, anchored before Post', () => {
    const targets = instagram.findReplyTargets(document);
    expect(targets).toHaveLength(1);
    expect(targets[0]?.editor.tagName).toBe('TEXTAREA');
    expect(targets[0]?.anchor.textContent).toBe('Post');
    expect(targets[0]?.placement).toBe('before');
  });

  it('reads the author, caption and comments', () => {
    const context = instagram.readContext(instagram.findReplyTargets(document)[0]!);
    expect(context.kind).toBe('post');
    expect(context.author).toBe('tomas.rides');
    expect(context.text).toContain('Caption: Finally rebuilt the old steel frame.');
    expect(context.text).toContain('ines.paints: That colour is perfect. What time are you leaving?');
    expect(context.text).toContain('ben_k: Count me in if it does not rain 🚲');
  });

  it('fills the textarea so React registers it (a plain assignment would not)', () => {
    const { editor } = instagram.findReplyTargets(document)[0]!;
    const area = editor as HTMLTextAreaElement;
    area.value = 'typed by assignment';
    area.dispatchEvent(new Event('input', { bubbles: true }));
    expect(editorState('comment')).toBeUndefined();

    const seen: string[] = [];
    area.addEventListener('input', () => seen.push(area.value));
    expect(instagram.insertText(area, 'I am in! 9am at the bridge?')).toBe('value-setter');
    expect(area.value).toBe('I am in! 9am at the bridge?');
    expect(seen).toEqual(['I am in! 9am at the bridge?']);
    expect(editorState('comment')?.text).toBe('I am in! 9am at the bridge?');
    expect(document.querySelector('form [role="button"]:last-child')?.getAttribute('aria-disabled')).toBe('false');
  });
});
