/**
 * Facebook. Atomic classes change with every build, so selectors use roles and data attributes: role=article
 * (posts; comments carry an aria-label), data-ad-rendering-role / data-ad-preview for the author and message,
 * data-lexical-editor for composers. Comment composers sit in a <form>; the "Create post" composer does not.
 *
 * Editing: the composer is Lexical. Lexical handles beforeinput itself (insertText, insertLineBreak) and calls
 * preventDefault, and it reverts DOM changes it did not make — so no `dom` fallback. Order: synthetic beforeinput
 * (works without execCommand), then execCommand (trusted events), then a paste event (Lexical reads clipboardData).
 * Newlines become line breaks: Enter (insertParagraph via keyboard) would submit the comment.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { all, closestContaining, first } from '../shared/dom.js';
import { CONTEXT_CAP, capRecent, capText, sections, visibleText } from '../shared/text.js';
import type { ContextSource, InsertMethod, ReplyTarget, SiteContext } from '../shared/types.js';

const S = {
  editor: 'form [contenteditable="true"][role="textbox"]',
  toolbar: 'ul',
  message: '[data-ad-rendering-role="story_message"], [data-ad-preview="message"], [data-ad-comet-preview="message"]',
  author: '[data-ad-rendering-role="profile_name"], h2, h3',
  comment: '[role="article"][aria-label]',
  commentAuthor: 'a[role="link"]',
  commentText: '[dir="auto"]',
} as const;

export const selectors = S;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return all(root, S.editor).map((editor): ReplyTarget => {
    const toolbar = first(editor.closest('form'), S.toolbar);
    return { editor, anchor: toolbar ?? editor, placement: toolbar ? 'prepend' : 'after', kind: 'comment' };
  });
}

function readComment(article: Element): string {
  const author = visibleText(first(article, S.commentAuthor));
  const text = visibleText(first(article, S.commentText));
  return author ? `${author}: ${text}` : text;
}

export function readContext(from: ContextSource): SiteContext {
  const editor =
    'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : first(from as Document, S.editor);
  const post = editor && closestContaining(editor, S.message);
  if (!editor || !post) return { kind: 'post', text: '' };
  const author = visibleText(first(post, S.author));
  // A reply box inside a comment's thread answers that comment.
  const replyingTo = all(post, S.comment).find((c) => c.parentElement?.contains(editor));
  const comments = all(post, S.comment).filter((c) => c !== replyingTo);
  const text = sections([
    ['Post by', author],
    ['', capText(visibleText(first(post, S.message)), CONTEXT_CAP / 2)],
    ['Comments', comments.length ? `\n${capRecent(comments.map(readComment), CONTEXT_CAP / 3, '\n')}` : ''],
    ['Replying to the comment', replyingTo ? readComment(replyingTo) : ''],
  ]);
  return { kind: replyingTo ? 'comment-thread' : 'post', author: author || undefined, text: capText(text) };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['beforeinput', 'exec-command', 'paste'], newline: 'linebreak' });
}
