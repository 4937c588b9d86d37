/**
 * Shortcut expansion: `;thx` followed by Space, Enter or Tab becomes the shortcut's text, in place, in any textarea,
 * text input or contenteditable. Loaded (shortcuts.js, web-accessible) only on pages of a person who has shortcuts;
 * see part.ts.
 *
 * - Matching is local: the keys are in this isolated world, keystrokes are never sent anywhere. A key is expanded
 *   when it is ended by Space, Enter or Tab (not as soon as it matches: `;thx` and `;thxbye` may both exist). The
 *   trigger must not follow a letter or digit (`a;b` in code or an address stays as typed). Keys match in any case.
 * - Space and Enter then do what they always do after the text (a space; a new line, or the site's send); Tab is taken
 *   (the focus stays in the field).
 * - The text is inserted as typing is: execCommand('insertText') on the selected `;key`, so the browser fires real
 *   beforeinput / input events (sites register the text) and Ctrl+Z undoes it natively. Where that is refused, the
 *   text field gets setRangeText + `input` and the editable a text node + `input`, and Ctrl+Z right after restores
 *   `;key` (our own undo). An undone expansion is not expanded again by the next Space.
 * - Only a person's keys count (listenTrusted): a page's synthetic keydown expands nothing.
 */
import { SHORTCUT_KEY_MAX, SHORTCUT_KEY_PATTERN } from '@parley/contract/values';
import type { ShortcutItem } from '../../platform/storage/templates-store';
import { listenTrusted } from '../../ui/on-site/trusted';

export type ShortcutMatch = { start: number; key: string; text: string };

/**
 * The shortcut ending right before `caret` in `text` (only the few characters before the caret are looked at, however
 * long the text is).
 */
export function findShortcut(
  text: string,
  caret: number,
  trigger: string,
  texts: ReadonlyMap<string, string>,
): ShortcutMatch | null {
  const from = Math.max(0, caret - trigger.length - SHORTCUT_KEY_MAX);
  const at = text.lastIndexOf(trigger, caret - trigger.length);
  if (at < from) return null;
  const key = text.slice(at + trigger.length, caret).toLowerCase();
  if (!SHORTCUT_KEY_PATTERN.test(key)) return null;
  const expansion = texts.get(key);
  if (expansion === undefined) return null;
  if (at > 0 && /[\p{L}\p{N}]/u.test(text[at - 1]!)) return null;
  return { start: at, key, text: expansion };
}

/** Typing `text` over the selection, as the browser does it (real input events, native undo); false when refused. */
function typeOver(text: string): boolean {
  try {
    return typeof document.execCommand === 'function' && document.execCommand('insertText', false, text);
  } catch {
    return false;
  }
}

type TextField = HTMLTextAreaElement | HTMLInputElement;
const TEXT_INPUTS = new Set(['text', 'search', '']);

function textField(el: Element): TextField | null {
  if (el instanceof HTMLTextAreaElement) return el.readOnly || el.disabled ? null : el;
  if (el instanceof HTMLInputElement && TEXT_INPUTS.has(el.getAttribute('type')?.toLowerCase() ?? '')) {
    return el.readOnly || el.disabled ? null : el;
  }
  return null;
}

/** Where the caret is in an editable: a text node and the offset in it (null when the caret is not after text). */
function caretText(): { node: Text; offset: number } | null {
  const selection = document.getSelection();
  if (!selection || !selection.isCollapsed || !selection.focusNode) return null;
  const { focusNode, focusOffset } = selection;
  if (focusNode.nodeType === Node.TEXT_NODE) return { node: focusNode as Text, offset: focusOffset };
  const previous = focusNode.childNodes[focusOffset - 1];
  return previous?.nodeType === Node.TEXT_NODE ? { node: previous as Text, offset: (previous as Text).length } : null;
}

/** The last expansion: in which field, where, what was typed (`;key`), and our own undo when the browser has none. */
type Undo = { field: Element; start: number; key: string; typed: string; restore: (() => boolean) | null };

/** Listens for shortcuts while it runs; returns the function that stops it. */
export function startShortcuts(options: { shortcuts: ShortcutItem[]; trigger: string }): () => void {
  const texts = new Map(options.shortcuts.map((s) => [s.key.toLowerCase(), s.text]));
  const { trigger } = options;
  let last: Undo | null = null;
  let declined: Omit<Undo, 'restore'> | null = null;

  const expandInField = (field: TextField, event: KeyboardEvent): boolean => {
    const caret = field.selectionStart;
    if (caret === null || caret !== field.selectionEnd) return false;
    const match = findShortcut(field.value, caret, trigger, texts);
    if (!match || isDeclined(field, match)) return false;
    const before = field.value;
    const typed = before.slice(match.start, caret);
    field.setSelectionRange(match.start, caret);
    let restore: Undo['restore'] = null;
    if (!typeOver(match.text)) {
      field.setRangeText(match.text, match.start, caret, 'end');
      field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: match.text }));
      const after = field.value;
      const end = field.selectionEnd;
      restore = () => {
        if (field.value !== after || field.selectionEnd !== end) return false;
        field.setRangeText(typed, match.start, match.start + (after.length - before.length + typed.length), 'end');
        field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'historyUndo' }));
        return true;
      };
    }
    done(field, match, typed, restore, event);
    return true;
  };

  const expandInEditable = (host: HTMLElement, event: KeyboardEvent): boolean => {
    const caret = caretText();
    if (!caret || !host.contains(caret.node)) return false;
    const match = findShortcut(caret.node.data, caret.offset, trigger, texts);
    if (!match || isDeclined(host, match)) return false;
    const selection = document.getSelection()!;
    const range = document.createRange();
    range.setStart(caret.node, match.start);
    range.setEnd(caret.node, caret.offset);
    selection.removeAllRanges();
    selection.addRange(range);
    const typed = range.toString();
    let restore: Undo['restore'] = null;
    if (!typeOver(match.text)) {
      range.deleteContents();
      const inserted = document.createTextNode(match.text);
      range.insertNode(inserted);
      range.setStartAfter(inserted);
      range.collapse(true);
      selection.removeAllRanges();
      selection.addRange(range);
      host.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: match.text }));
      restore = () => {
        if (!inserted.isConnected || inserted.data !== match.text) return false;
        const back = document.createTextNode(typed);
        inserted.replaceWith(back);
        const at = document.createRange();
        at.setStartAfter(back);
        at.collapse(true);
        selection.removeAllRanges();
        selection.addRange(at);
        host.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'historyUndo' }));
        return true;
      };
    }
    done(host, match, typed, restore, event);
    return true;
  };

  const isDeclined = (field: Element, match: ShortcutMatch) => {
    const was = declined;
    declined = null;
    return was !== null && was.field === field && was.start === match.start && was.key === match.key;
  };

  const done = (
    field: Element,
    match: ShortcutMatch,
    typed: string,
    restore: Undo['restore'],
    event: KeyboardEvent,
  ) => {
    last = { field, start: match.start, key: match.key, typed, restore };
    // Tab would move the focus away from what was just written.
    if (event.key === 'Tab') event.preventDefault();
  };

  const undo = (field: Element, event: KeyboardEvent) => {
    const was = last;
    last = null;
    if (!was || was.field !== field) return;
    if (was.restore) {
      if (!was.restore()) return;
      event.preventDefault();
    }
    // Undone natively or by us: the next Space after `;key` leaves it as typed.
    declined = { field: was.field, start: was.start, key: was.key, typed: was.typed };
  };

  /** The browser's undo leaves `;key` selected: the key that follows goes after it rather than over it. */
  const keepTyped = (field: TextField | null, editable: HTMLElement | null) => {
    if (!declined || declined.field !== (field ?? editable)) return;
    if (field) {
      const end = declined.start + declined.typed.length;
      if (field.selectionStart === declined.start && field.selectionEnd === end) field.setSelectionRange(end, end);
      return;
    }
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed && selection.toString() === declined.typed) selection.collapseToEnd();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const { key } = event;
    // Most keys leave here: the cost per keystroke is this comparison.
    if (key !== ' ' && key !== 'Enter' && key !== 'Tab' && key !== 'z' && key !== 'Z') return;
    if (event.isComposing || event.altKey) return;
    const target = event.composedPath()[0];
    if (!(target instanceof Element)) return;
    const field = textField(target);
    const editable = field ? null : target instanceof HTMLElement && target.isContentEditable ? target : null;
    if (!field && !editable) return;
    if (key === 'z' || key === 'Z') {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey) undo(field ?? editable!, event);
      return;
    }
    // Shift+Enter is a new line in chat boxes; Shift+Tab goes back and is left alone.
    if (event.ctrlKey || event.metaKey || (event.shiftKey && key === 'Tab')) return;
    keepTyped(field, editable);
    if (field) expandInField(field, event);
    else expandInEditable(editable!, event);
  };

  return listenTrusted(document, 'keydown', onKeyDown, true);
}
