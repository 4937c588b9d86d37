// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertText } from './insert.js';

afterEach(() => {
  delete (document as { execCommand?: unknown }).execCommand;
});

describe('insertText', () => {
  it('uses the prototype value setter for text fields, with a bubbling input event', () => {
    document.body.innerHTML = '<form><input id="f"></form>';
    const field = document.getElementById('f') as HTMLInputElement;
    const seen: string[] = [];
    document.body.addEventListener('input', () => seen.push(field.value));
    expect(insertText(field, 'hello', { strategies: ['dom'] })).toBe('value-setter');
    expect(seen).toEqual(['hello']);
  });

  it('takes execCommand when the browser has it, line by line with line breaks', () => {
    document.body.innerHTML = '<div id="e" contenteditable="true"><p>old</p></div>';
    const calls: Array<[string, string | undefined]> = [];
    (document as { execCommand?: unknown }).execCommand = vi.fn((command: string, _ui: boolean, value?: string) => {
      calls.push([command, value]);
      return true;
    });
    const editor = document.getElementById('e')!;
    expect(insertText(editor, 'a\n\nb', { strategies: ['beforeinput', 'exec-command', 'dom'] })).toBe('exec-command');
    expect(calls).toEqual([
      ['insertText', 'a'],
      ['insertLineBreak', undefined],
      ['insertLineBreak', undefined],
      ['insertText', 'b'],
    ]);
    // The selection covered the old content when execCommand ran.
    expect(document.getSelection()?.toString()).toBe('old');
  });

  it('falls through when execCommand declines, and reports null when nothing took the text', () => {
    document.body.innerHTML = '<div id="e" contenteditable="true"></div>';
    (document as { execCommand?: unknown }).execCommand = () => false;
    const editor = document.getElementById('e')!;
    expect(insertText(editor, 'x', { strategies: ['beforeinput', 'exec-command', 'paste'] })).toBeNull();
    expect(insertText(editor, 'x', { strategies: ['exec-command', 'dom'] })).toBe('dom');
    expect(editor.innerHTML).toBe('<div>x</div>');
  });

  it('sends beforeinput events only after the first was taken, and paste carries text/plain', () => {
    document.body.innerHTML = '<div id="e" contenteditable="true"></div>';
    const editor = document.getElementById('e')!;
    const events: string[] = [];
    editor.addEventListener('beforeinput', (e) => {
      events.push(`${e.inputType}:${e.data ?? ''}`);
      e.preventDefault();
    });
    editor.addEventListener('paste', (e) => {
      events.push(`paste:${(e as ClipboardEvent).clipboardData?.getData('text/plain')}`);
      e.preventDefault();
    });
    expect(insertText(editor, 'one\ntwo', { strategies: ['beforeinput'], newline: 'paragraph' })).toBe('beforeinput');
    expect(insertText(editor, 'one\ntwo', { strategies: ['paste'] })).toBe('paste');
    expect(events).toEqual(['insertText:one', 'insertParagraph:', 'insertText:two', 'paste:one\ntwo']);
  });

  it('writes text, never markup, in the dom fallback and keeps protected content', () => {
    document.body.innerHTML =
      '<div id="e" contenteditable="true"><div>draft</div><div class="sig">Sig</div><blockquote>quoted</blockquote></div>';
    const editor = document.getElementById('e')!;
    insertText(editor, '<img src=x onerror=alert(1)>\nline', { strategies: ['dom'], keep: '.sig', lineTag: 'p' });
    expect(editor.querySelector('img')).toBeNull();
    expect(Array.from(editor.children, (c) => c.textContent)).toEqual([
      '<img src=x onerror=alert(1)>',
      'line',
      'Sig',
      'quoted',
    ]);
  });

  it('keeps Gmail’s inline "--" signature prefix on a line of its own, after the blank line before it', () => {
    const gmail = '<div><br></div><div><br></div><span class="prefix">--</span><br><div class="sig">Alex</div>';
    document.body.innerHTML = `<div id="e" contenteditable="true">${gmail}</div>`;
    const editor = document.getElementById('e')!;
    insertText(editor, 'Hi\nBest, Nora', { strategies: ['dom'], keep: '.prefix, .sig', lineTag: 'div' });
    const html = editor.innerHTML;
    expect(html).toContain('<div>Best, Nora</div><div><br></div><span class="prefix">--</span>');
    expect(html).not.toContain('Nora--');

    // Text that would touch the prefix (no blank line left before it) gets a line break.
    document.body.innerHTML =
      '<div id="e" contenteditable="true">draft<span class="prefix">--</span><br><div class="sig">Alex</div></div>';
    const other = document.getElementById('e')!;
    insertText(other, 'Thanks', { strategies: ['dom'], keep: '.prefix, .sig', lineTag: 'br' });
    expect(other.innerHTML).toContain('Thanks<br><span class="prefix">--</span>');
  });
});
