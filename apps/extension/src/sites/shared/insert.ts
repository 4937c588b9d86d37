/**
 * Putting a reply into a site's editor so that the site registers it, as typing or pasting would.
 *
 * - textarea / input: the native value setter (bypassing React's per-instance value tracker) and a bubbling `input`.
 * - contenteditable: focus, select the replaceable content, tell the page the selection moved, then try the site's
 *   strategies in order. Each strategy reports whether it took effect, so a later one never doubles the text:
 *   - `beforeinput`: synthetic InputEvents (insertText, insertLineBreak / insertParagraph). Only editors that model
 *     input in JS (Lexical) act on them, and they call preventDefault: that is the signal it worked.
 *   - `exec-command`: document.execCommand('insertText'): the browser edits the DOM and fires trusted
 *     beforeinput / input / textInput, so every framework sees real typing. Deprecated but alive in Chromium;
 *     the boolean result is the signal (frameworks may render later, so the DOM is not checked).
 *   - `paste`: a ClipboardEvent carrying a DataTransfer with text/plain. Editors that own paste (Lexical, DraftJS)
 *     read it and call preventDefault; a synthetic paste has no default action, so an unhandled one changed nothing.
 *   - `dom`: write the lines as elements (textContent only, never HTML) and fire `input`. Right for editors whose
 *     DOM is the state (Gmail, Outlook, YouTube) or that observe mutations (Quill); wrong for Lexical, which reverts.
 */
import type { InsertMethod } from './types.js';

export type EditableStrategy = Exclude<InsertMethod, 'value-setter'>;

export interface InsertOptions {
  /** Tried in order until one takes effect. */
  strategies: readonly EditableStrategy[];
  /** What a newline becomes for `beforeinput` / `exec-command`. */
  newline?: 'linebreak' | 'paragraph';
  /** For `dom`: one element per line (`div`, `p`) or text joined by `<br>`. */
  lineTag?: 'div' | 'p' | 'br';
  /** Content to keep (signature, quoted history): only what comes before its first match is replaced. */
  keep?: string;
}

export const DEFAULT_STRATEGIES: readonly EditableStrategy[] = ['beforeinput', 'exec-command', 'paste', 'dom'];

export function isTextField(el: Element): el is HTMLTextAreaElement | HTMLInputElement {
  return el.tagName === 'TEXTAREA' || el.tagName === 'INPUT';
}

/** Fill `editor`, returning the method that took effect, or null when none did. */
export function insertText(editor: HTMLElement, text: string, options: InsertOptions): InsertMethod | null {
  if (isTextField(editor)) {
    setFieldValue(editor, text);
    return 'value-setter';
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const strategy of options.strategies) {
    prepare(editor, options.keep);
    if (run[strategy](editor, lines, options)) {
      keepOnOwnLine(editor, options.keep);
      return strategy;
    }
  }
  return null;
}

/** React (and similar) track the last value they set on the element itself; the prototype setter bypasses that. */
export function setFieldValue(field: HTMLTextAreaElement | HTMLInputElement, value: string): void {
  const view = field.ownerDocument.defaultView ?? window;
  const proto = field.tagName === 'TEXTAREA' ? view.HTMLTextAreaElement.prototype : view.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  field.focus({ preventScroll: true });
  if (setter) setter.call(field, value);
  else field.value = value;
  field.dispatchEvent(new view.Event('input', { bubbles: true }));
}

/** The top-level child of `editor` holding the first `keep` match, if any. */
function keepBoundary(editor: HTMLElement, keep: string | undefined): ChildNode | null {
  const kept = keep ? editor.querySelector(keep) : null;
  let node: Node | null = kept;
  while (node && node.parentNode !== editor) node = node.parentNode;
  return node as ChildNode | null;
}

function isBlock(node: Node): boolean {
  if (node.nodeType !== 1) return false;
  const view = node.ownerDocument?.defaultView;
  const display = view ? view.getComputedStyle(node as Element).display : '';
  return display !== '' && !display.startsWith('inline') && display !== 'contents';
}

/**
 * Where what the reply replaces ends: before the kept part, or, when the kept part starts inline (Gmail's `--`
 * signature prefix), before the empty line or line break that keeps it on a line of its own, so the reply's last
 * line is not run into it.
 */
function replaceUpTo(editor: HTMLElement, keep: string | undefined): ChildNode | null {
  const boundary = keepBoundary(editor, keep);
  if (!boundary || isBlock(boundary)) return boundary;
  const before = boundary.previousSibling;
  if (before && (before.nodeName === 'BR' || (isBlock(before) && (before.textContent ?? '') === ''))) return before;
  return boundary;
}

/** After an insert: a kept part that starts inline gets a line break before it if the reply's text now touches it. */
function keepOnOwnLine(editor: HTMLElement, keep: string | undefined): void {
  const boundary = keepBoundary(editor, keep);
  if (!boundary || isBlock(boundary)) return;
  const before = boundary.previousSibling;
  if (before && before.nodeName !== 'BR' && !isBlock(before))
    editor.insertBefore(editor.ownerDocument.createElement('br'), boundary);
}

/** Focus and select what the reply replaces; then announce the selection so frameworks sync their model now. */
function prepare(editor: HTMLElement, keep: string | undefined): void {
  const doc = editor.ownerDocument;
  editor.focus({ preventScroll: true });
  const selection = doc.getSelection();
  if (!selection) return;
  const range = doc.createRange();
  range.selectNodeContents(editor);
  const boundary = replaceUpTo(editor, keep);
  if (boundary) range.setEndBefore(boundary);
  selection.removeAllRanges();
  selection.addRange(range);
  // Browsers fire selectionchange asynchronously; Lexical, React (DraftJS onSelect) and Quill listen to it.
  doc.dispatchEvent(new (doc.defaultView ?? window).Event('selectionchange'));
}

function inputEvent(editor: HTMLElement, type: string, inputType: string, data: string | null): InputEvent {
  const view = editor.ownerDocument.defaultView ?? window;
  return new view.InputEvent(type, {
    inputType,
    data,
    bubbles: true,
    cancelable: type === 'beforeinput',
    composed: true,
  });
}

type Runner = (editor: HTMLElement, lines: string[], options: InsertOptions) => boolean;

const run: Record<EditableStrategy, Runner> = {
  beforeinput(editor, lines, options) {
    const breakType = options.newline === 'paragraph' ? 'insertParagraph' : 'insertLineBreak';
    // The first event also replaces the selection, so it is sent even for an empty first line.
    const first = inputEvent(editor, 'beforeinput', 'insertText', lines[0] ?? '');
    editor.dispatchEvent(first);
    // An editor that ignored the first event will ignore the rest: send nothing more.
    if (!first.defaultPrevented) return false;
    for (const line of lines.slice(1)) {
      editor.dispatchEvent(inputEvent(editor, 'beforeinput', breakType, null));
      if (line) editor.dispatchEvent(inputEvent(editor, 'beforeinput', 'insertText', line));
    }
    return true;
  },

  'exec-command'(editor, lines, options) {
    const doc = editor.ownerDocument;
    if (typeof doc.execCommand !== 'function') return false;
    const breakCommand = options.newline === 'paragraph' ? 'insertParagraph' : 'insertLineBreak';
    try {
      let ok = doc.execCommand('insertText', false, lines[0] ?? '');
      if (!ok) return false;
      for (const line of lines.slice(1)) {
        ok = doc.execCommand(breakCommand, false) && ok;
        if (line) doc.execCommand('insertText', false, line);
      }
      return true;
    } catch {
      return false;
    }
  },

  paste(editor, lines) {
    const view = editor.ownerDocument.defaultView ?? window;
    const text = lines.join('\n');
    const data = makeDataTransfer(view, text);
    let event: Event;
    try {
      event = new view.ClipboardEvent('paste', {
        clipboardData: data as DataTransfer,
        bubbles: true,
        cancelable: true,
      });
    } catch {
      event = new view.Event('paste', { bubbles: true, cancelable: true });
    }
    // Some engines ignore clipboardData in the constructor (and jsdom has no ClipboardEvent).
    if (!(event as ClipboardEvent).clipboardData) Object.defineProperty(event, 'clipboardData', { value: data });
    editor.dispatchEvent(event);
    return event.defaultPrevented;
  },

  dom(editor, lines, options) {
    const doc = editor.ownerDocument;
    const boundary = replaceUpTo(editor, options.keep);
    while (editor.firstChild && editor.firstChild !== boundary) editor.firstChild.remove();
    const nodes: Node[] = [];
    const tag = options.lineTag ?? 'div';
    lines.forEach((line, index) => {
      if (tag === 'br') {
        if (index > 0) nodes.push(doc.createElement('br'));
        if (line) nodes.push(doc.createTextNode(line));
        return;
      }
      const block = doc.createElement(tag);
      if (line) block.textContent = line;
      else block.append(doc.createElement('br'));
      nodes.push(block);
    });
    for (const node of nodes) editor.insertBefore(node, boundary);
    placeCaretAfter(editor, nodes[nodes.length - 1] ?? null);
    editor.dispatchEvent(inputEvent(editor, 'input', 'insertText', lines.join('\n')));
    return true;
  },
};

function placeCaretAfter(editor: HTMLElement, node: Node | null): void {
  const selection = editor.ownerDocument.getSelection();
  if (!selection) return;
  const range = editor.ownerDocument.createRange();
  if (node && node.parentNode) range.setStartAfter(node);
  else range.selectNodeContents(editor);
  range.collapse(!node);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** A real DataTransfer where the engine has one; otherwise the small part of it paste handlers read. */
function makeDataTransfer(view: Window & typeof globalThis, text: string): Pick<DataTransfer, 'getData' | 'types'> {
  if (typeof view.DataTransfer === 'function') {
    try {
      const data = new view.DataTransfer();
      data.setData('text/plain', text);
      return data;
    } catch {
      // fall through to the stand-in
    }
  }
  const store = new Map<string, string>([['text/plain', text]]);
  return {
    types: [...store.keys()],
    getData: (format: string) => store.get(format === 'text' ? 'text/plain' : format) ?? '',
    setData: (format: string, value: string) => void store.set(format, value),
    items: [],
    files: [],
  } as unknown as DataTransfer;
}
