// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/facebook/post.html?raw';
import { insertText } from '../shared/insert.js';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { facebook } from './index.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('facebook', () => {
  beforeEach(() => loadFixture(html));

  it('matches www.facebook.com', () => {
    expect(facebook.match(new URL('https://www.facebook.com/groups/examplecyclists/posts/1234567890123456/'))).toBe(
      true,
    );
    expect(facebook.match(new URL('https://facebook.com.example.org/'))).toBe(false);
  });

  it('finds the Lexical comment composer, anchored at its toolbar', () => {
    const targets = facebook.findReplyTargets(document);
    expect(targets).toHaveLength(1);
    expect(targets[0]?.editor.getAttribute('data-lexical-editor')).toBe('true');
    expect(targets[0]?.anchor.tagName).toBe('UL');
  });

  it('reads the post and its comments', () => {
    const context = facebook.readContext(facebook.findReplyTargets(document)[0]!);
    expect(context).toMatchObject({ kind: 'post', author: 'Marta Silva' });
    expect(context.text).toContain('Lost a blue water bottle at the Saturday group ride');
    expect(context.text).toContain('it has a sticker of a fox on it.');
    expect(context.text).toContain('Tom Becker: I think Anna took one home');
    expect(context.text).toContain('Anna Kowalski: Yes, I have it!');
    expect(context.text).not.toContain('Write a comment');
  });

  it('inserts through beforeinput; Lexical’s model registers it, line breaks kept', async () => {
    const { editor } = facebook.findReplyTargets(document)[0]!;
    expect(facebook.insertText(editor, 'Great news Anna!\nSee you Saturday.')).toBe('beforeinput');
    await settle();
    expect(editorState('comment')?.text).toBe('Great news Anna!\nSee you Saturday.');
    expect(editor.querySelectorAll('[data-lexical-text]')).toHaveLength(2);
    expect(editor.querySelector('br')).not.toBeNull();
    // A second reply replaces the first (the selection covered the content).
    facebook.insertText(editor, 'Thanks all!');
    await settle();
    expect(editorState('comment')?.text).toBe('Thanks all!');
  });

  it('the paste fallback is registered too', async () => {
    const { editor } = facebook.findReplyTargets(document)[0]!;
    expect(insertText(editor, 'Pasted reply', { strategies: ['paste'] })).toBe('paste');
    await settle();
    expect(editorState('comment')?.text).toBe('Pasted reply');
  });

  it('a direct DOM write is not registered (why Facebook has no dom fallback)', async () => {
    const { editor } = facebook.findReplyTargets(document)[0]!;
    insertText(editor, 'Silent write', { strategies: ['dom'] });
    await settle();
    expect(editorState('comment')?.text ?? '').toBe('');
    expect(editor.textContent).toBe('');
  });
});
