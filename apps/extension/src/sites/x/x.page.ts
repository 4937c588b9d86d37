/**
 * X (Twitter). Selectors use X's data-testid attributes (tweet, User-Name, tweetText, tweetTextarea_N,
 * tweetButtonInline / tweetButton), which survive its CSS-in-JS class churn and do not depend on the language.
 *
 * Editing: the composer is DraftJS. DraftJS ignores native beforeinput (React's onBeforeInput is textInput in
 * Chromium) and fights DOM changes it did not make; it owns paste completely, reading text/plain and splitting it
 * into blocks. So: a paste event first (multi-line safe, preventDefault shows it was taken), then execCommand
 * (trusted textInput / input), never a DOM write.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { all, first, precedes } from '../shared/dom.js';
import { CONTEXT_CAP, capRecent, visibleText } from '../shared/text.js';
import type { ContextSource, InsertMethod, ReplyTarget, SiteContext } from '../shared/types.js';

const S = {
  editor: '[data-testid^="tweetTextarea_"][contenteditable="true"]',
  button: '[data-testid="tweetButtonInline"], [data-testid="tweetButton"]',
  toolbar: '[data-testid="toolBar"]',
  tweet: 'article[data-testid="tweet"]',
  userName: '[data-testid="User-Name"]',
  text: '[data-testid="tweetText"]',
  scope: '[role="dialog"], [aria-label^="Timeline"], main',
} as const;

export const selectors = S;

function tweetsBefore(editor: Element): Element[] {
  const scope = editor.closest(S.scope) ?? editor.ownerDocument;
  return all(scope, S.tweet).filter((tweet) => precedes(tweet, editor));
}

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return all(root, S.editor).map((editor): ReplyTarget => {
    const toolbar = editor.closest('[data-testid="cellInnerDiv"], [role="dialog"], form') ?? editor.parentElement;
    const button = first(toolbar, S.button);
    return {
      editor,
      anchor: button ?? first(toolbar, S.toolbar) ?? editor,
      placement: button ? 'before' : 'after',
      // The home composer (nothing above it to answer) writes a new post.
      kind: tweetsBefore(editor).length ? 'reply' : 'compose',
    };
  });
}

function readTweet(tweet: Element): { author: string; line: string } {
  const names = all(first(tweet, S.userName), 'a[role="link"], a');
  const author = visibleText(names[0]);
  const handle = names.map((a) => visibleText(a)).find((t) => t.startsWith('@')) ?? '';
  const text = visibleText(first(tweet, S.text));
  return { author, line: `${author}${handle ? ` (${handle})` : ''}: ${text}` };
}

/** The post being replied to is the last one above the box; up to three before it give the thread. */
export function readContext(from: ContextSource): SiteContext {
  const editor =
    'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : first(from as Document, S.editor);
  const above = editor ? tweetsBefore(editor).slice(-4) : [];
  const target = above.pop();
  if (!target) return { kind: 'post', text: '' };
  const replyTo = readTweet(target);
  const thread = above.map((t) => readTweet(t).line);
  const text = thread.length
    ? `Earlier in the thread:\n${capRecent(thread, CONTEXT_CAP / 2, '\n')}\n\nReplying to:\n${replyTo.line}`
    : replyTo.line;
  return { kind: 'post', author: replyTo.author || undefined, text };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['paste', 'exec-command'], newline: 'linebreak' });
}
