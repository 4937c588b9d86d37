// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import feedHtml from '../../../fixtures/sites/linkedin/feed-post.html?raw';
import messagingHtml from '../../../fixtures/sites/linkedin/messaging.html?raw';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { linkedin } from './index.js';

const flushObservers = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('linkedin', () => {
  it('matches www.linkedin.com', () => {
    expect(linkedin.match(new URL('https://www.linkedin.com/feed/'))).toBe(true);
    expect(linkedin.match(new URL('https://linkedin.com.example.net/feed/'))).toBe(false);
  });

  describe('comment box (Quill)', () => {
    it('finds the editor, not Quill’s clipboard container, anchored at the icons', () => {
      loadFixture(feedHtml);
      const targets = linkedin.findReplyTargets(document);
      expect(targets).toHaveLength(1);
      expect(targets[0]).toMatchObject({ kind: 'comment', placement: 'prepend' });
      expect(targets[0]?.editor.classList.contains('ql-editor')).toBe(true);
      expect(targets[0]?.anchor.classList.contains('comments-comment-box__detour-container')).toBe(true);
    });

    it('reads the post, its author once, and the visible comments', () => {
      loadFixture(feedHtml);
      const context = linkedin.readContext(linkedin.findReplyTargets(document)[0]!);
      expect(context.kind).toBe('post');
      expect(context.author).toBe('Dana Whitfield');
      expect(context.text).toContain('Post by: Dana Whitfield, Head of Product at Northwind Robotics');
      expect(context.text).toContain('not month twelve.\n\nWhat was the most useful early feedback');
      expect(context.text).toContain('Ravi Menon: Congratulations!');
      expect(context.text).toContain('Lena Fischer: How did you handle battery swaps during long shifts?');
      expect(context.text.match(/Dana Whitfield/g)).toHaveLength(1);
      expect(context.text).not.toContain('…more');
    });

    it('inserts lines as paragraphs that Quill’s model picks up', async () => {
      loadFixture(feedHtml);
      const { editor } = linkedin.findReplyTargets(document)[0]!;
      expect(linkedin.insertText(editor, 'Congrats Dana!\nFeedback from night-shift staff.')).toBe('dom');
      await flushObservers();
      expect(editorState('comment')?.text).toBe('Congrats Dana!\nFeedback from night-shift staff.');
      expect(editor.querySelectorAll('p')).toHaveLength(2);
      expect(editor.classList.contains('ql-blank')).toBe(false);
      expect(document.querySelector('.comments-comment-box__submit-button--cr.hidden')).toBeNull();
    });
  });

  describe('message box', () => {
    it('finds the box, reads the conversation with senders carried forward, inserts with input', () => {
      loadFixture(messagingHtml);
      const [target] = linkedin.findReplyTargets(document);
      expect(target).toMatchObject({ kind: 'message', placement: 'prepend' });
      const context = linkedin.readContext(target!);
      expect(context).toMatchObject({ kind: 'message-thread', title: 'Sofia Marquez' });
      expect(context.text.split('\n')).toEqual([
        'Sofia Marquez: Hi Kai, I came across your profile and think you would be a great fit for a platform engineer role at a logistics company in Lisbon.',
        'Kai Tanaka: Thanks Sofia. Is the role remote-friendly?',
        'Sofia Marquez: Two days a week in the office, the rest remote. Would you be open to a short call this week?',
      ]);
      expect(linkedin.insertText(target!.editor, 'Hi Sofia, Thursday works.')).toBe('dom');
      expect(editorState('message')?.text).toBe('Hi Sofia, Thursday works.');
      expect(document.querySelector<HTMLButtonElement>('.msg-form__send-button')?.disabled).toBe(false);
    });
  });
});
