import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField, cn, focusRing } from '@parley/ui';
import { cleanFragment, cleanSignatureHtml, linkFromInput } from '../lib/signature-html';
import { BoldIcon, CodeIcon, ItalicIcon, ListIcon, NumberedListIcon, UnderlineIcon } from './icons';
import { invalidClasses, textareaClasses } from './section';
import { LinkIcon } from '@parley/ui/action-icons';

export type RichTextHandle = { focus: () => void };

type Command = 'bold' | 'italic' | 'underline' | 'insertUnorderedList' | 'insertOrderedList';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The browser's editing commands on the focused editable (no editor library: a signature needs little). */
function exec(command: string, value?: string): void {
  if (typeof document.execCommand === 'function') document.execCommand(command, false, value);
}

function ToolButton({
  label,
  pressed,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      // Keeps the selection in the editor while the button is pressed.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={cn(
        'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:hover:text-zinc-50',
        pressed && 'bg-zinc-200 text-zinc-900 dark:bg-zinc-700 dark:text-zinc-50',
        focusRing,
      )}
    >
      {children}
    </button>
  );
}

/**
 * A small formatted-text editor for signatures: bold, italic, underline, links, lists, and the HTML itself for
 * those who have a signature already. Whatever enters it — typed HTML, a paste, a drop, the stored signature — is
 * cleaned first (lib/signature-html), so no script or event handler ever becomes part of the page. `html` is read
 * when `resetKey` changes; every change is reported cleaned.
 */
export const RichTextEditor = forwardRef<
  RichTextHandle,
  {
    label: string;
    html: string;
    resetKey: string | number;
    error?: string | undefined;
    onChange: (html: string) => void;
  }
>(function RichTextEditor({ label, html, resetKey, error, onChange }, ref) {
  const { t } = useTranslation('templates');
  const id = useId();
  const editor = useRef<HTMLDivElement>(null);
  const source = useRef<HTMLTextAreaElement>(null);
  const saved = useRef<Range | null>(null);
  const [mode, setMode] = useState<'visual' | 'html'>('visual');
  const [sourceText, setSourceText] = useState('');
  const [linking, setLinking] = useState(false);
  const [linkText, setLinkText] = useState('');
  const [linkProblem, setLinkProblem] = useState(false);
  const htmlRef = useRef(html);
  htmlRef.current = html;

  const load = (value: string) => {
    editor.current?.replaceChildren(cleanFragment(value));
  };

  useEffect(() => {
    load(htmlRef.current);
    setSourceText(cleanSignatureHtml(htmlRef.current));
    setMode('visual');
  }, [resetKey]);

  useImperativeHandle(ref, () => ({
    focus: () => (mode === 'html' ? source.current?.focus() : editor.current?.focus()),
  }));

  const report = () => onChange(cleanSignatureHtml(editor.current?.innerHTML ?? ''));

  const run = (command: Command) => {
    editor.current?.focus();
    exec(command);
    report();
  };

  const insertClean = (dirty: string) => {
    editor.current?.focus();
    exec('insertHTML', cleanSignatureHtml(dirty));
    report();
  };

  const onPaste = (event: ClipboardEvent) => {
    event.preventDefault();
    const data = event.clipboardData;
    const pasted = data.getData('text/html');
    insertClean(pasted || escapeHtml(data.getData('text/plain')).replace(/\n/g, '<br>'));
  };

  const onDrop = (event: DragEvent) => {
    // Dropped markup could carry anything: only its text comes in, at the caret.
    event.preventDefault();
    const text = event.dataTransfer.getData('text/plain');
    if (text) insertClean(escapeHtml(text).replace(/\n/g, '<br>'));
  };

  const openLink = () => {
    const selection = window.getSelection();
    const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    saved.current = range && editor.current?.contains(range.commonAncestorContainer) ? range.cloneRange() : null;
    setLinkText('');
    setLinkProblem(false);
    setLinking(true);
  };

  const addLink = () => {
    const href = linkFromInput(linkText);
    if (!href) {
      setLinkProblem(true);
      return;
    }
    editor.current?.focus();
    const selection = window.getSelection();
    if (saved.current && selection) {
      selection.removeAllRanges();
      selection.addRange(saved.current);
    }
    if (!saved.current || saved.current.collapsed) {
      const shown = linkText.trim();
      exec('insertHTML', cleanSignatureHtml(`<a href="${escapeHtml(href)}">${escapeHtml(shown)}</a>&nbsp;`));
    } else exec('createLink', href);
    setLinking(false);
    report();
  };

  const toggleMode = () => {
    if (mode === 'visual') {
      setSourceText(cleanSignatureHtml(editor.current?.innerHTML ?? ''));
      setMode('html');
      requestAnimationFrame(() => source.current?.focus());
    } else {
      const clean = cleanSignatureHtml(sourceText);
      setMode('visual');
      requestAnimationFrame(() => {
        load(clean);
        editor.current?.focus();
      });
      onChange(clean);
    }
  };

  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </span>
      <div
        className={cn(
          'overflow-hidden rounded-md border bg-white shadow-xs dark:bg-zinc-900',
          error ? 'border-red-500 dark:border-red-400' : 'border-zinc-300 dark:border-zinc-700',
        )}
      >
        <div
          role="toolbar"
          aria-label={t('signatureEditor.toolbar')}
          className="flex flex-wrap items-center gap-0.5 border-b border-zinc-200 bg-zinc-50 px-1.5 py-1 dark:border-zinc-800 dark:bg-zinc-950"
        >
          {mode === 'visual' && (
            <>
              <ToolButton label={t('signatureEditor.bold')} onClick={() => run('bold')}>
                <BoldIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <ToolButton label={t('signatureEditor.italic')} onClick={() => run('italic')}>
                <ItalicIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <ToolButton label={t('signatureEditor.underline')} onClick={() => run('underline')}>
                <UnderlineIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <ToolButton label={t('signatureEditor.link')} pressed={linking} onClick={openLink}>
                <LinkIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <ToolButton label={t('signatureEditor.bulletList')} onClick={() => run('insertUnorderedList')}>
                <ListIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <ToolButton label={t('signatureEditor.numberList')} onClick={() => run('insertOrderedList')}>
                <NumberedListIcon width="1.05em" height="1.05em" />
              </ToolButton>
              <span className="mx-1 h-5 w-px bg-zinc-300 dark:bg-zinc-700" aria-hidden="true" />
            </>
          )}
          <ToolButton label={t('signatureEditor.html')} pressed={mode === 'html'} onClick={toggleMode}>
            <CodeIcon width="1.05em" height="1.05em" />
          </ToolButton>
        </div>
        {linking && mode === 'visual' && (
          // Not a form: it sits inside the signature's form.
          <div
            role="group"
            aria-label={t('signatureEditor.link')}
            className="flex flex-wrap items-end gap-2 border-b border-zinc-200 bg-white p-2 dark:border-zinc-800 dark:bg-zinc-900"
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addLink();
              }
              if (e.key === 'Escape') {
                e.stopPropagation();
                setLinking(false);
                editor.current?.focus();
              }
            }}
          >
            <div className="min-w-0 flex-1 basis-48">
              <TextField
                label={t('signatureEditor.linkUrl')}
                value={linkText}
                placeholder="https://"
                autoFocus
                error={linkProblem ? t('signatureEditor.linkInvalid') : undefined}
                onChange={(e) => {
                  setLinkText(e.target.value);
                  setLinkProblem(false);
                }}
              />
            </div>
            <div className="flex gap-2">
              <Button className="px-3 py-2" onClick={addLink}>
                {t('signatureEditor.linkAdd')}
              </Button>
              <Button
                variant="ghost"
                className="px-3 py-2"
                onClick={() => {
                  setLinking(false);
                  editor.current?.focus();
                }}
              >
                {t('cancel')}
              </Button>
            </div>
          </div>
        )}
        <div
          ref={editor}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          contentEditable={mode === 'visual'}
          suppressContentEditableWarning
          tabIndex={0}
          hidden={mode !== 'visual'}
          onInput={report}
          onBlur={report}
          onPaste={onPaste}
          onDrop={onDrop}
          data-testid="signature-editor"
          className="signature-content min-h-32 px-3 py-2 text-sm text-zinc-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500/60 dark:text-zinc-100 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-300 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6"
        />
        {mode === 'html' && (
          <textarea
            ref={source}
            aria-label={t('signatureEditor.htmlLabel')}
            value={sourceText}
            rows={8}
            spellCheck={false}
            onChange={(e) => {
              setSourceText(e.target.value);
              onChange(cleanSignatureHtml(e.target.value));
            }}
            className={cn(
              textareaClasses,
              'rounded-none border-0 font-mono text-xs shadow-none',
              error && invalidClasses,
            )}
          />
        )}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
});
