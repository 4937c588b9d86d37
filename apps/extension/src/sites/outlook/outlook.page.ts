/**
 * Outlook on the web (OWA). Its classes are hashed per build, so selectors lean on roles, ids OWA keeps for
 * compatibility (editorParent_N, appendonsend, divRplyFwdMsg, Signature) and data-testid; aria-labels are English
 * here, with structural fallbacks beside them.
 *
 * Editing: OWA's editor (RoosterJS) keeps its content in the DOM and reacts to input. So: execCommand('insertText'),
 * else write <div> lines and fire `input`. The signature and the quoted original (after #appendonsend) are kept.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { addressIn, all, childHolding, closestContaining, first } from '../shared/dom.js';
import { CONTEXT_CAP, capRecent, capText, visibleText } from '../shared/text.js';
import type {
  ContextSource,
  InsertMethod,
  MailSummarySource,
  ReplyTarget,
  SiteContext,
  SummaryAnchor,
} from '../shared/types.js';

const S = {
  editor:
    'div[contenteditable="true"][role="textbox"][aria-label^="Message body"], [id^="editorParent_"] > div[contenteditable="true"]',
  send: 'button[aria-label="Send"], button[title^="Send ("]',
  pane: '#ReadingPaneContainerId, [role="main"]',
  subject: '[role="heading"][aria-level="2"]',
  message: '[role="listitem"]',
  sender: '[aria-label^="From:"], span[title*="@"]',
  date: '[data-testid="SentReceivedSavedTime"]',
  body: '[role="document"][aria-label="Message body"], [aria-label="Message body"]:not([contenteditable])',
  quoted: '[id$="appendonsend"] ~ *, [id$="divRplyFwdMsg"], [id$="divRplyFwdMsg"] ~ *, blockquote, [id$="Signature"]',
  // Parley's own signature (features/signatures) is kept too: a reply inserted later goes above it.
  keep: '#Signature, [id^="Signature"], #appendonsend, #divRplyFwdMsg, [data-parley-signature]',
  quoteStart: '#appendonsend, #divRplyFwdMsg',
  // The account writing: the account manager's details (Microsoft's "me control", in the page while its pane is
  // closed), else the mailbox at the top of the folder tree, which OWA names by its address.
  accountDetails: '#mectrl_currentAccount_secondary',
  mailboxRoot: '[role="tree"] [role="treeitem"][aria-level="1"][title*="@"]',
} as const;

export const selectors = S;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return [...new Set(all(root, S.editor))].map((editor) => {
    const send = first(closestContaining(editor, S.send), S.send);
    return {
      editor,
      anchor: send ?? editor,
      placement: send ? 'after' : 'before',
      kind: editor.closest(S.pane) ? 'reply' : 'compose',
    } satisfies ReplyTarget;
  });
}

function readThread(root: ParentNode): MailSummarySource | null {
  const pane = first(root, S.pane);
  const heading = first(pane, S.subject);
  if (!pane || !heading) return null;
  const title = heading.querySelector('[title]')?.getAttribute('title') || visibleText(heading);
  const messages = all(pane, S.message)
    .map((item) => {
      const sender = first(item, S.sender);
      const name = (sender?.getAttribute('aria-label') ?? '').replace(/^From:\s*/, '') || visibleText(sender);
      const email = sender?.getAttribute('title') ?? '';
      const date = visibleText(first(item, S.date));
      const body = visibleText(first(item, S.body), { skip: S.quoted });
      return {
        name,
        body,
        head: `From: ${name}${email.includes('@') ? ` <${email}>` : ''}${date ? `\nDate: ${date}` : ''}`,
      };
    })
    .filter((m) => m.body);
  return {
    kind: 'mail',
    title,
    author: messages[messages.length - 1]?.name,
    text: `Subject: ${title}\n\n${capRecent(
      messages.map((m) => `${m.head}\n\n${m.body}`),
      CONTEXT_CAP - title.length - 11,
    )}`.trim(),
  };
}

export function readContext(from: ContextSource): SiteContext {
  const editor = 'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : null;
  const doc = editor?.ownerDocument ?? (from as Document);
  if (editor && !editor.closest(S.pane)) {
    // A new message in its own window: nothing to answer but what is already typed.
    return { kind: 'mail', text: capText(visibleText(editor, { skip: S.keep })) };
  }
  return readThread(doc) ?? { kind: 'mail', text: '' };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['exec-command', 'dom'], lineTag: 'div', keep: S.keep });
}

export function findSummaryAnchor(root: ParentNode): SummaryAnchor | null {
  const heading = first(first(root, S.pane), S.subject);
  return heading ? { anchor: heading, placement: 'after' } : null;
}

export function readForSummary(root: ParentNode): MailSummarySource | null {
  return readThread(root);
}

/** A signature goes above the quoted original (which starts at #appendonsend), else at the end. */
export function signatureSlot(editor: HTMLElement): ChildNode | null {
  return childHolding(editor, editor.querySelector(S.quoteStart));
}

/**
 * The address of the account writing, as Gmail's title gives it there: from the account manager, else from the
 * mailbox at the top of the folder tree; null when neither shows one (the site's default signature then applies).
 */
export function accountAddress(doc: Document): string | null {
  return (
    addressIn(first(doc, S.accountDetails)?.textContent) ?? addressIn(first(doc, S.mailboxRoot)?.getAttribute('title'))
  );
}
