// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { onTestPage } from '../../test/test-page';
import { findShortcut, startShortcuts } from './expand';

vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const texts = new Map([
  ['thx', 'Thank you for your help!'],
  ['thxbye', 'Thanks, bye'],
  ['addr', '12 Harbour Road\nPortsmouth'],
]);
const shortcuts = [...texts].map(([key, text]) => ({ key, text }));

/** The text and a caret at its end. */
const at = (text: string) => [text, text.length] as const;

describe('findShortcut', () => {
  it('finds the key right before the caret, after the trigger, in any case', () => {
    expect(findShortcut(...at('Hello ;thx'), ';', texts)).toEqual({
      start: 6,
      key: 'thx',
      text: 'Thank you for your help!',
    });
    expect(findShortcut(...at(';thx'), ';', texts)?.start).toBe(0);
    expect(findShortcut(...at('line\n;THX'), ';', texts)?.key).toBe('thx');
    expect(findShortcut(...at('(;thxbye'), ';', texts)?.text).toBe('Thanks, bye');
    expect(findShortcut(...at('a //addr'), '//', texts)?.start).toBe(2);
  });

  it('leaves what is no shortcut: unknown keys, a trigger inside a word, text after the key, another trigger', () => {
    expect(findShortcut(...at('Hello ;thanks'), ';', texts)).toBeNull();
    expect(findShortcut(...at('a;thx'), ';', texts)).toBeNull();
    expect(findShortcut(...at('x = 1;thx'), ';', texts)).toBeNull();
    expect(findShortcut(...at(';thx '), ';', texts)).toBeNull();
    expect(findShortcut(...at('/thx'), ';', texts)).toBeNull();
    expect(findShortcut(...at(';'), ';', texts)).toBeNull();
    expect(findShortcut(...at(`;${'a'.repeat(40)}`), ';', texts)).toBeNull();
    // Only what is before the caret counts, and only its last few characters are read.
    expect(findShortcut('Hello ;thx and more', 10, ';', texts)?.start).toBe(6);
    expect(findShortcut(`${'x '.repeat(50_000)};thx`, 100_004, ';', texts)?.start).toBe(100_000);
    expect(findShortcut(';thx', 3, ';', texts)).toBeNull();
  });
});

/** jsdom has neither execCommand nor isContentEditable: the fallback path runs (setRangeText / a text node). */
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'isContentEditable', {
    configurable: true,
    get(this: HTMLElement) {
      return this.closest('[contenteditable="true"]') !== null;
    },
  });
});

function press(page: ReturnType<typeof onTestPage>, target: Element, key: string, init: Record<string, unknown> = {}) {
  const event = { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, isComposing: false, ...init };
  let prevented = false;
  page.asPerson(document, 'keydown', {
    ...event,
    composedPath: () => [target],
    preventDefault: () => {
      prevented = true;
    },
  });
  return prevented;
}

function typeInto(field: HTMLTextAreaElement | HTMLInputElement, text: string) {
  field.focus();
  field.value += text;
  field.setSelectionRange(field.value.length, field.value.length);
}

function caretAtEnd(node: Text) {
  const range = document.createRange();
  range.setStart(node, node.length);
  range.collapse(true);
  document.getSelection()!.removeAllRanges();
  document.getSelection()!.addRange(range);
}

describe('shortcut expansion', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    document.body.replaceChildren();
  });

  it('replaces ;key in a textarea on Space, tells the page (input event), and Ctrl+Z gives ;key back', () => {
    document.body.innerHTML = '<textarea></textarea>';
    const area = document.querySelector('textarea')!;
    const inputs: string[] = [];
    area.addEventListener('input', (e) => inputs.push(`${(e as InputEvent).inputType}:${area.value}`));
    const page = onTestPage();
    stop = startShortcuts({ shortcuts, trigger: ';' });

    typeInto(area, 'Hello ;thx');
    expect(press(page, area, ' ')).toBe(false); // the Space itself is typed after the text
    expect(area.value).toBe('Hello Thank you for your help!');
    expect(area.selectionStart).toBe(area.value.length);
    expect(inputs).toEqual(['insertText:Hello Thank you for your help!']);

    expect(press(page, area, 'z', { ctrlKey: true })).toBe(true);
    expect(area.value).toBe('Hello ;thx');
    expect(inputs.at(-1)).toBe('historyUndo:Hello ;thx');
    // Undone: the next Space leaves ;thx as typed.
    expect(press(page, area, ' ')).toBe(false);
    expect(area.value).toBe('Hello ;thx');
    // A later ;thx expands again, on Enter as on Space; Tab expands and keeps the focus in the field.
    typeInto(area, '\n;thx');
    press(page, area, 'Enter');
    expect(area.value).toBe('Hello ;thx\nThank you for your help!');
    typeInto(area, ' ;addr');
    expect(press(page, area, 'Tab')).toBe(true);
    expect(area.value).toBe('Hello ;thx\nThank you for your help! 12 Harbour Road\nPortsmouth');
  });

  it('our undo does nothing once the person typed on', () => {
    document.body.innerHTML = '<input type="text">';
    const input = document.querySelector('input')!;
    const page = onTestPage();
    stop = startShortcuts({ shortcuts, trigger: ';' });
    typeInto(input, ';thxbye');
    press(page, input, ' ');
    expect(input.value).toBe('Thanks, bye');
    typeInto(input, ' see you');
    expect(press(page, input, 'z', { ctrlKey: true })).toBe(false);
    expect(input.value).toBe('Thanks, bye see you');
  });

  it('replaces ;key in a contenteditable at the caret, and Ctrl+Z gives ;key back', () => {
    document.body.innerHTML = '<div contenteditable="true"><div>Hi Morgan,</div><div>Sure ;thx</div></div>';
    const editor = document.querySelector<HTMLElement>('[contenteditable]')!;
    const inputs: string[] = [];
    editor.addEventListener('input', (e) => inputs.push((e as InputEvent).inputType));
    const page = onTestPage();
    stop = startShortcuts({ shortcuts, trigger: ';' });
    const line = editor.lastElementChild!.firstChild as Text;
    caretAtEnd(line);

    press(page, editor, ' ');
    expect(editor.innerHTML).toBe('<div>Hi Morgan,</div><div>Sure Thank you for your help!</div>');
    const selection = document.getSelection()!;
    expect(selection.isCollapsed).toBe(true);
    // The caret is right after the text (nothing of the line follows it).
    const rest = document.createRange();
    rest.setStart(selection.focusNode!, selection.focusOffset);
    rest.setEndAfter(editor.lastChild!);
    expect(rest.toString()).toBe('');
    expect(selection.focusNode!.textContent).toBe('Sure Thank you for your help!');
    expect(inputs).toEqual(['insertText']);

    expect(press(page, editor, 'Z', { metaKey: true })).toBe(true);
    expect(editor.textContent).toBe('Hi Morgan,Sure ;thx');
    expect(inputs.at(-1)).toBe('historyUndo');
  });

  it('expands only a person’s keys, in text fields only, and not while composing or with modifiers', () => {
    document.body.innerHTML =
      '<textarea></textarea><input type="password"><input type="text" readonly><div id="plain">;thx</div>';
    const [area, password, readonly] = [
      document.querySelector('textarea')!,
      document.querySelector<HTMLInputElement>('[type=password]')!,
      document.querySelector<HTMLInputElement>('[readonly]')!,
    ];
    const page = onTestPage();
    stop = startShortcuts({ shortcuts, trigger: ';' });

    typeInto(area, ';thx');
    // What a page's script can do: a synthetic keydown is untrusted.
    area.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    press(page, area, ' ', { isComposing: true });
    press(page, area, ' ', { ctrlKey: true });
    press(page, area, 'Tab', { shiftKey: true });
    expect(area.value).toBe(';thx');
    for (const field of [password, readonly]) {
      field.value = ';thx';
      press(page, field, ' ');
      expect(field.value).toBe(';thx');
    }
    press(page, document.querySelector('#plain')!, ' ');
    expect(document.querySelector('#plain')!.textContent).toBe(';thx');
    // Shift+Enter (a new line in chat boxes) expands.
    press(page, area, 'Enter', { shiftKey: true });
    expect(area.value).toBe('Thank you for your help!');
  });

  it('listens with one keydown listener, removed on stop', () => {
    const add = vi.spyOn(document, 'addEventListener');
    const remove = vi.spyOn(document, 'removeEventListener');
    const stopNow = startShortcuts({ shortcuts, trigger: ';' });
    expect(add.mock.calls.map(([type]) => type)).toEqual(['keydown']);
    stopNow();
    expect(remove).toHaveBeenCalledWith('keydown', add.mock.calls[0]![1], true);
  });
});
