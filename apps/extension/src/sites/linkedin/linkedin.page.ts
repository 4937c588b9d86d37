/**
 * LinkedIn. Class names are LinkedIn's BEM-style ones (comments-*, update-components-*, msg-*), stable across
 * locales. Names appear twice (aria-hidden visible text + .visually-hidden copy): the reader keeps the visible one.
 *
 * Editing: the comment box is Quill; Quill's model follows DOM mutations (MutationObserver), not synthetic
 * beforeinput (Quill 1 ignores it; Quill 2 needs target ranges a synthetic event lacks), and Quill 1's paste goes
 * through a hidden container a synthetic paste never fills. So: execCommand('insertText'), else <p> lines in the
 * DOM, which Quill reads back. The message box is LinkedIn's own contenteditable, which reads itself on input:
 * the same two strategies, with `input` fired.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { all, first } from '../shared/dom.js';
import { CONTEXT_CAP, capRecent, capText, sections, visibleText } from '../shared/text.js';
import type { ContextSource, InsertMethod, ReplyTarget, SiteContext } from '../shared/types.js';

const S = {
  commentEditor:
    '.comments-comment-box .ql-editor[contenteditable="true"], .comments-comment-texteditor [contenteditable="true"][role="textbox"]',
  commentIcons: '.comments-comment-box__detour-container',
  messageEditor: '.msg-form__contenteditable[contenteditable="true"]',
  messageActions: '.msg-form__right-actions',
  post: '.feed-shared-update-v2, [data-urn^="urn:li:activity"], [data-id^="urn:li:activity"]',
  actor: '.update-components-actor__title',
  actorDescription: '.update-components-actor__description',
  postText: '.update-components-update-v2__commentary, .feed-shared-update-v2__description, .update-components-text',
  comment: 'article.comments-comment-entity, article.comments-comment-item',
  commentAuthor: '.comments-comment-meta__description-title, .comments-post-meta__name-text',
  commentText: '.comments-comment-item__main-content',
  conversation: '.msg-convo-wrapper, .msg-overlay-conversation-bubble, .msg-thread',
  conversationTitle: '#thread-detail-jump-target, .msg-entity-lockup__entity-title, .msg-overlay-bubble-header__title',
  message: '.msg-s-event-listitem',
  messageSender: '.msg-s-message-group__name',
  messageBody: '.msg-s-event-listitem__body',
} as const;

export const selectors = S;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  const comments = all(root, S.commentEditor).map((editor): ReplyTarget => {
    const icons = first(editor.closest('.comments-comment-texteditor, form'), S.commentIcons);
    return { editor, anchor: icons ?? editor, placement: icons ? 'prepend' : 'after', kind: 'comment' };
  });
  const messages = all(root, S.messageEditor).map((editor): ReplyTarget => {
    const actions = first(editor.closest('form'), S.messageActions);
    return { editor, anchor: actions ?? editor, placement: actions ? 'prepend' : 'after', kind: 'message' };
  });
  // An editor matched by both comment selectors is listed once.
  return [...comments, ...messages].filter((t, i, list) => list.findIndex((o) => o.editor === t.editor) === i);
}

function readComment(article: Element): string {
  const author = visibleText(first(article, S.commentAuthor));
  const text = visibleText(first(article, S.commentText));
  return author ? `${author}: ${text}` : text;
}

function readPost(editor: Element): SiteContext {
  const post = editor.closest(S.post);
  if (!post) return { kind: 'post', text: '' };
  const author = visibleText(first(post, S.actor));
  const replyingTo = editor.closest(S.comment);
  const comments = all(post, S.comment).filter((c) => c !== replyingTo && !c.contains(editor));
  const text = sections([
    ['Post by', [author, visibleText(first(post, S.actorDescription))].filter(Boolean).join(', ')],
    ['', capText(visibleText(first(post, S.postText), { skip: 'button' }), CONTEXT_CAP / 2)],
    ['Comments', comments.length ? `\n${capRecent(comments.map(readComment), CONTEXT_CAP / 3, '\n')}` : ''],
    ['Replying to the comment', replyingTo ? readComment(replyingTo) : ''],
  ]);
  return { kind: replyingTo ? 'comment-thread' : 'post', author: author || undefined, text: capText(text) };
}

function readConversation(editor: Element): SiteContext {
  const convo = editor.closest(S.conversation) ?? editor.ownerDocument;
  const title = visibleText(first(convo, S.conversationTitle));
  let sender = '';
  const lines = all(convo, S.message).map((item) => {
    // Consecutive messages from one person show the name once: carry it forward.
    sender = visibleText(first(item, S.messageSender)) || sender;
    return `${sender}: ${visibleText(first(item, S.messageBody))}`;
  });
  return {
    kind: 'message-thread',
    title: title || undefined,
    author: title || undefined,
    text: capRecent(lines, CONTEXT_CAP, '\n'),
  };
}

export function readContext(from: ContextSource): SiteContext {
  const editor =
    'editor' in from
      ? from.editor
      : from.nodeType === 1
        ? (from as Element)
        : first(from as Document, `${S.messageEditor}, ${S.commentEditor}`);
  if (!editor) return { kind: 'post', text: '' };
  return editor.matches(S.messageEditor) ? readConversation(editor) : readPost(editor);
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['exec-command', 'dom'], lineTag: 'p', newline: 'paragraph' });
}
