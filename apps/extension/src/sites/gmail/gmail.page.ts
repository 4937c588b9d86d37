/**
 * Gmail's markup. Class names are Gmail's generated ones (stable for years, unlike aria-labels, which are localized).
 *
 * Editing: Gmail's body editor is a plain contenteditable whose DOM *is* the draft; Gmail listens to input to
 * autosave and to enable Send. So: execCommand('insertText') (trusted input, undo works), else write the lines as
 * <div>s and fire `input`. No synthetic beforeinput or paste: Gmail does not act on them. The signature and quoted
 * text are kept; only the part of the body before them is replaced.
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
  editor: 'div.editable[contenteditable="true"][role="textbox"], div[g_editable="true"][contenteditable="true"]',
  sendCell: 'td.gU.Up',
  toolbar: 'tr.btC',
  compose: '[role="dialog"], .M9',
  composeSubject: 'input[name="subjectbox"]',
  main: '[role="main"]',
  subject: 'h2.hP',
  message: '[role="listitem"]',
  sender: '.gD[email], span[email][name]',
  date: '.g3',
  body: '.a3s',
  snippet: '.iA.g6, .y2',
  quoted: '.gmail_quote, .yj6qo, .adL .gmail_quote, .gmail_signature_prefix',
  // Parley's own signature (features/signatures) is kept too: a reply inserted later goes above it.
  keep: '.gmail_signature, .gmail_signature_prefix, .gmail_quote, [data-smartmail="gmail_signature"], [data-parley-signature]',
  quote: '.gmail_quote',
  account: 'a[aria-label*="@"][href*="accounts.google.com"]',
} as const;

export const selectors = S;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return all(root, S.editor)
    .filter((editor, index, list) => !list.some((other) => other !== editor && other.contains(editor)))
    .map((editor) => {
      const box = closestContaining(editor, S.sendCell);
      const anchor = first(box, S.sendCell) ?? editor;
      return {
        editor,
        anchor,
        placement: anchor === editor ? 'before' : 'after',
        kind: editor.closest(S.compose) && !editor.closest(S.main) ? 'compose' : 'reply',
      } satisfies ReplyTarget;
    });
}

interface Message {
  from: string;
  email?: string;
  date?: string;
  text: string;
}

function readMessages(thread: ParentNode): Message[] {
  return all(thread, S.message)
    .map((item) => {
      const sender = first(item, S.sender);
      const body = first(item, S.body);
      const dateEl = first(item, S.date);
      return {
        from: sender?.getAttribute('name') || visibleText(sender),
        email: sender?.getAttribute('email') ?? undefined,
        date: dateEl?.getAttribute('title') || visibleText(dateEl) || undefined,
        text: body ? visibleText(body, { skip: S.quoted }) : visibleText(first(item, S.snippet)),
      };
    })
    .filter((m) => m.text || m.from);
}

function formatMessage(m: Message): string {
  const from = m.email && m.email !== m.from ? `${m.from} <${m.email}>` : m.from;
  return `From: ${from}${m.date ? `\nDate: ${m.date}` : ''}\n\n${m.text}`;
}

/** The thread open in the main view, or null in a list view. */
function readThread(root: ParentNode): MailSummarySource | null {
  const main = root.querySelector(S.main) ?? (root as Element);
  const subject = first(main, S.subject);
  if (!subject) return null;
  const messages = readMessages(main);
  const title = visibleText(subject);
  return {
    kind: 'mail',
    title,
    author: messages[messages.length - 1]?.from,
    text: `Subject: ${title}\n\n${capRecent(messages.map(formatMessage), CONTEXT_CAP - title.length - 11)}`.trim(),
  };
}

const stripPrefix = (subject: string) => subject.replace(/^\s*((re|fwd?|aw|tr|rv)\s*:\s*)+/i, '').trim();

export function readContext(from: ContextSource): SiteContext {
  const editor = 'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : null;
  const doc = editor?.ownerDocument ?? (from as Document);
  const thread = readThread(doc);
  const compose = editor?.closest(S.compose);
  if (editor && compose && !editor.closest(S.main)) {
    // A compose window belongs to the open thread only when it replies to it (same subject).
    const subject = (first<HTMLInputElement>(compose, S.composeSubject)?.value ?? '').trim();
    if (!thread || stripPrefix(subject) !== stripPrefix(thread.title ?? '')) {
      return { kind: 'mail', title: subject || undefined, text: capText(visibleText(editor, { skip: S.keep })) };
    }
  }
  return thread ?? { kind: 'mail', text: '' };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['exec-command', 'dom'], lineTag: 'div', keep: S.keep });
}

export function findSummaryAnchor(root: ParentNode): SummaryAnchor | null {
  const subject = first(root, `${S.main} ${S.subject}`) ?? first(root, S.subject);
  const anchor = subject?.parentElement;
  return anchor ? { anchor, placement: 'append' } : null;
}

export function readForSummary(root: ParentNode): MailSummarySource | null {
  return readThread(root);
}

/** A signature goes above the quoted message when it is in the editor (expanded), else at the end. */
export function signatureSlot(editor: HTMLElement): ChildNode | null {
  return childHolding(editor, editor.querySelector(S.quote));
}

/** Gmail's window title names the account ("Inbox (3) - alex@example.com - Gmail"), as does its account button. */
export function accountAddress(doc: Document): string | null {
  const titled = / - ([^\s@]+@[^\s@]+) - [^-]*$/.exec(doc.title)?.[1];
  return addressIn(titled) ?? addressIn(first(doc, S.account)?.getAttribute('aria-label'));
}
