import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall } from '../../platform/messaging/messaging';
import { readStoredSettings } from '../../platform/storage/settings-store';
import { copyButton } from '../../ui/on-site/copy';
import { el, errorMessage, mountShadowUi, showText, styleSheet } from '../../ui/on-site/shadow';
import type { OnSiteKey, Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';

/**
 * The mini menu on selected text and the quick-access box. Loaded by the page content script only on the first
 * selection or shortcut (web-accessible `quick-access.js`). Selected text and page titles are data for the API and
 * come back as text shown by `showText`; nothing is inserted without the person's click.
 */
const QUICK_CSS = `
.parley.float { position: fixed; z-index: 2147483647; display: block; }
.parley .menu { display: flex; flex-wrap: wrap; background: #fff; border: 1px solid #c9ced6; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.16); padding: 2px; }
.parley.float .panel { position: static; }
.parley .box { display: flex; gap: 6px; margin: 0 0 8px; }
.parley .box input { flex: 1; font: inherit; padding: 4px 8px; border: 1px solid #c9ced6; border-radius: 6px; }
`;

type Action = 'explain' | 'summarize' | 'rewrite' | 'translate' | 'replyAction';
const ACTIONS: Action[] = ['explain', 'summarize', 'rewrite', 'translate', 'replyAction'];

/** The selection when the menu opened: its text, where it is, and how to replace it when it is editable. */
export interface Captured {
  text: string;
  rect: DOMRect;
  replace?: (text: string) => boolean;
}

export function captureSelection(doc: Document = document): Captured | null {
  const active = doc.activeElement;
  if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && active.type === 'text')) {
    const start = active.selectionStart ?? 0;
    const end = active.selectionEnd ?? 0;
    const text = active.value.slice(start, end).trim();
    if (!text) return null;
    return {
      text,
      rect: active.getBoundingClientRect(),
      replace: (value) => {
        active.focus();
        active.setRangeText(value, start, end, 'end');
        active.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
        return true;
      },
    };
  }
  const selection = doc.getSelection();
  const text = selection?.toString().trim();
  if (!selection || !text || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0).cloneRange();
  const node = range.commonAncestorContainer;
  const editable = (node instanceof Element ? node : node.parentElement)?.closest(
    '[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]',
  );
  return {
    text,
    rect: range.getBoundingClientRect(),
    replace: editable
      ? (value) => {
          (editable as HTMLElement).focus();
          const current = doc.getSelection();
          current?.removeAllRanges();
          current?.addRange(range);
          // execCommand keeps the editor's own undo stack and input events (editors listen to them).
          return doc.execCommand('insertText', false, value);
        }
      : undefined,
  };
}

function writingOptions(s: Settings) {
  return { tone: s.tone, length: s.length, language: s.language };
}

/** The API call behind each menu action. */
export async function runAction(action: Action, text: string): Promise<string> {
  const s = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
  const options = writingOptions(s);
  switch (action) {
    case 'explain':
      return (
        await apiCall('editMessage', {
          body: { ...options, text, instruction: 'Explain this text simply and clearly; do not rewrite it.' },
        })
      ).data.text;
    case 'rewrite':
      return (
        await apiCall('editMessage', {
          body: { ...options, text, instruction: 'Rewrite this text so it reads better, keeping its meaning.' },
        })
      ).data.text;
    case 'summarize':
      return (await apiCall('summary', { body: { ...options, kind: 'page', text } })).data.text;
    case 'translate':
      return (await apiCall('translate', { body: { text, target: s.language } })).data.text;
    case 'replyAction':
      return (await apiCall('message', { body: { ...options, replyOption: s.replyOption, thread: text } })).data.text;
  }
}

export async function askQuestion(question: string, text: string): Promise<string> {
  const s = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
  return (await apiCall('editMessage', { body: { ...writingOptions(s), text, instruction: question } })).data.text;
}

type Kind = 'menu' | 'box';
let current: { kind: Kind; remove: () => void } | null = null;

/** Closes what is open; with a kind, only when that is what is open. */
export function closeQuickAccess(kind?: Kind): void {
  if (kind && current?.kind !== kind) return;
  current?.remove();
  current = null;
}

function place(root: HTMLElement, rect: DOMRect | null) {
  const width = Math.min(360, window.innerWidth - 16);
  root.style.width = `${width}px`;
  if (!rect) {
    root.style.top = '15vh';
    root.style.left = `${Math.max(8, (window.innerWidth - width) / 2)}px`;
    return;
  }
  const below = rect.bottom + 8;
  root.style.top = `${below + 60 < window.innerHeight ? below : Math.max(8, rect.top - 48)}px`;
  root.style.left = `${Math.min(Math.max(8, rect.left), window.innerWidth - width - 8)}px`;
}

let sequence = 0;

async function mount(
  ctx: ContentScriptContext,
  kind: Kind,
  t: Translate,
  build: (root: HTMLElement, t: Translate) => void,
): Promise<void> {
  closeQuickAccess();
  const id = ++sequence;
  const ui = await mountShadowUi(ctx, document.body, 'append', (container) => {
    const root = el('div', 'parley float');
    root.dataset.parley = 'quick';
    // Clicking the menu must not drop the page's selection.
    listenTrusted(root, 'mousedown', (event) => {
      if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
    });
    container.append(styleSheet(QUICK_CSS), root);
    build(root, t);
  });
  if (id !== sequence) {
    ui.remove();
    return;
  }
  closeQuickAccess();
  const stopOutside = listenTrusted(
    document,
    'mousedown',
    (event) => {
      if (!event.composedPath().includes(ui.shadowHost)) closeQuickAccess();
    },
    true,
  );
  const stopEscape = listenTrusted(
    document,
    'keydown',
    (event) => {
      if (event.key === 'Escape') closeQuickAccess();
    },
    true,
  );
  current = {
    kind,
    remove: () => {
      stopOutside();
      stopEscape();
      ui.remove();
    },
  };
}

/** The result panel: the answer (as text), Copy, and Insert when the selection can be replaced. */
function resultPanel(t: Translate, captured: Captured | null) {
  const panel = el('div', 'panel');
  panel.dataset.parley = 'quick-panel';
  const body = el('p', 'text');
  body.dataset.parley = 'quick-result';
  const actions = el('div', 'actions');
  // The answer shown, once there is one: what Copy and Insert give (the text is not in the DOM, see showText).
  let answer = '';
  const copy = copyButton(t, () => answer);
  actions.append(copy);
  const insert = captured?.replace ? el('button', 'primary', t('insert')) : null;
  if (insert) {
    insert.type = 'button';
    listenTrusted(insert, 'click', () => {
      if (!answer) return;
      if (captured?.replace?.(answer)) closeQuickAccess();
      else showText(body, t('insertFailed'));
    });
    actions.append(insert);
  }
  const close = el('button', '', t('close'));
  close.type = 'button';
  listenTrusted(close, 'click', () => closeQuickAccess());
  actions.append(close);
  panel.append(body, actions);
  panel.hidden = true;
  let generation = 0;
  const run = async (busy: OnSiteKey, work: () => Promise<string>) => {
    const id = ++generation;
    panel.hidden = false;
    body.classList.remove('error');
    showText(body, t(busy));
    answer = '';
    copy.disabled = true;
    if (insert) insert.disabled = true;
    try {
      const text = await work();
      if (id !== generation) return;
      answer = text;
      showText(body, text);
      copy.disabled = false;
      if (insert) insert.disabled = false;
    } catch (error) {
      if (id !== generation) return;
      body.classList.add('error');
      showText(body, errorMessage(error, t('failed')));
    }
  };
  return { panel, run };
}

/** The menu next to the selection (called on mouse-up / key-up when there is a selection). */
export async function showMenu(ctx: ContentScriptContext, t: Translate): Promise<void> {
  const captured = captureSelection();
  if (!captured) return;
  await mount(ctx, 'menu', t, (root) => {
    place(root, captured.rect);
    const menu = el('div', 'menu');
    menu.dataset.parley = 'quick-menu';
    const { panel, run } = resultPanel(t, captured);
    for (const action of ACTIONS) {
      const button = el('button', '', t(action));
      button.type = 'button';
      button.dataset.action = action;
      listenTrusted(button, 'click', () => void run('thinking', () => runAction(action, captured.text)));
      menu.append(button);
    }
    root.append(menu, panel);
  });
}

/** The quick-access box: a free question about the selected text, or else the page (its title). */
export async function openBox(ctx: ContentScriptContext, t: Translate): Promise<void> {
  const captured = captureSelection();
  await mount(ctx, 'box', t, (root) => {
    place(root, null);
    const panel = el('div', 'panel');
    panel.dataset.parley = 'quick-box';
    // Not a <form>: its `submit` event is trusted even when a script's click() on the button caused it. Enter in the
    // field and a click on Ask are what a person does.
    const box = el('div', 'box');
    const input = el('input');
    input.type = 'text';
    input.placeholder = t('quickAccessPlaceholder');
    input.setAttribute('aria-label', t('quickAccess'));
    const ask = el('button', 'primary', t('ask'));
    ask.type = 'button';
    box.append(input, ask);
    const result = resultPanel(t, captured);
    result.panel.classList.remove('panel');
    panel.append(el('p', 'title', t('quickAccess')), box, result.panel);
    root.append(panel);
    const submit = () => {
      const question = input.value.trim();
      if (!question) return;
      const text = captured?.text || `Page: ${document.title || location.href}\nAddress: ${location.href}`;
      void result.run('thinking', () => askQuestion(question, text));
    };
    listenTrusted(input, 'keydown', (event) => {
      if (event.key === 'Escape') closeQuickAccess();
      else if (event.key === 'Enter' && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    });
    listenTrusted(ask, 'click', submit);
    setTimeout(() => input.focus(), 0);
  });
}
