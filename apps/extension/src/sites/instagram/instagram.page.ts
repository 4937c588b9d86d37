/**
 * Instagram. Its classes are atomic (x1i0vuye…) and regenerated often, so selectors use the structure that
 * carries meaning: article / section / form, the comment textarea, list items with h1 (caption) / h3 (comments).
 * The aria-label "Add a comment…" is localized; the structural form/textarea selector does not depend on it.
 *
 * Editing: the comment box is a React-controlled <textarea>. React remembers the value it last saw on the element,
 * so assigning .value is invisible to it; the HTMLTextAreaElement prototype setter plus a bubbling `input` event
 * is what React's onChange reads. If Instagram moves a box to its Lexical contenteditable, the Lexical path applies.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { all, first } from '../shared/dom.js';
import { CONTEXT_CAP, capRecent, capText, sections, visibleText } from '../shared/text.js';
import type { ContextSource, InsertMethod, ReplyTarget, SiteContext } from '../shared/types.js';

const S = {
  editor: 'form textarea, form [contenteditable="true"][role="textbox"]',
  postButton: '[role="button"], button[type="submit"]',
  post: 'article, [role="dialog"]',
  author: 'header a[role="link"][href]',
  caption: 'h1',
  comment: 'ul ul li, ul._a9ym li',
  commentAuthor: 'h3',
  commentText: 'h3 ~ div, ._a9zs',
} as const;

export const selectors = S;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return all(root, S.editor).map((editor): ReplyTarget => {
    const form = editor.closest('form');
    const buttons = all(form, S.postButton).filter((b) => editor.compareDocumentPosition(b) & 4);
    const post = buttons[buttons.length - 1];
    return { editor, anchor: post ?? editor, placement: post ? 'before' : 'after', kind: 'comment' };
  });
}

export function readContext(from: ContextSource): SiteContext {
  const editor =
    'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : first(from as Document, S.editor);
  const post = editor?.closest(S.post);
  if (!post) return { kind: 'post', text: '' };
  const author = visibleText(first(post, S.author));
  const comments = all(post, S.comment).map((li) => {
    const name = visibleText(first(li, S.commentAuthor));
    const text = visibleText(first(li, S.commentText));
    return name ? `${name}: ${text}` : text;
  });
  const text = sections([
    ['Post by', author],
    ['Caption', capText(visibleText(first(post, S.caption)), CONTEXT_CAP / 2)],
    ['Comments', comments.length ? `\n${capRecent(comments, CONTEXT_CAP / 3, '\n')}` : ''],
  ]);
  return { kind: 'post', author: author || undefined, text: capText(text) };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['beforeinput', 'exec-command', 'paste'], newline: 'linebreak' });
}
