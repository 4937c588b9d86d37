import {
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, LinkIcon, MicIcon, PaperclipIcon } from '@parley/ui/action-icons';
import { SendStopButton } from '@parley/ui/chat';
import { Alert, CloseIcon, GlobeIcon, Spinner, cn, focusRing } from '@parley/ui';
import { CHAT_TEXT_MAX } from '@parley/contract/values';
import { ACCEPT, checkFiles, fileKind, formatSize, type FileProblem } from './file-checks';
import { useVoiceInput, type VoiceProblem } from './use-voice-input';

export type ComposerSubmit = { text: string; files: File[]; url?: string; webSearch: boolean };

export type ComposerHandle = {
  /** Files dropped on the chat or pasted; `imagesOnly` where only an image makes sense. */
  addFiles: (files: File[], options?: { imagesOnly?: boolean }) => void;
  /** Tells the person about a problem (e.g. something dropped that is not a file). */
  showProblem: (problem: FileProblem) => void;
  focus: () => void;
  setText: (text: string) => void;
};

type Props = {
  ref?: Ref<ComposerHandle>;
  streaming: boolean;
  /** No model can answer: typing is allowed, sending is not. */
  disabled?: boolean;
  onSend: (input: ComposerSubmit) => void;
  onStop: () => void;
};

type Picked = { file: File; previewUrl: string | null };

const iconButton = (active = false) =>
  cn(
    'inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-50 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
    active && 'bg-blue-50 text-blue-700 hover:bg-blue-100 dark:bg-blue-500/15 dark:text-blue-300',
    focusRing,
  );

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * The message box: multiline text (Enter sends, Shift+Enter adds a line), images and PDFs (picked, dropped or
 * pasted), 'Ask For Web', a page or video to talk about, and voice input.
 */
export function Composer({ ref, streaming, disabled = false, onSend, onStop }: Props) {
  const { t, i18n } = useTranslation('chat');
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<Picked[]>([]);
  const [webSearch, setWebSearch] = useState(false);
  const [showUrl, setShowUrl] = useState(false);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const describe = useCallback(
    (p: FileProblem) => ('limit' in p ? t(`files.${p.key}`, { limit: p.limit }) : t(`files.${p.key}`)),
    [t],
  );

  const addFiles = useCallback(
    (files: File[], options: { imagesOnly?: boolean } = {}) => {
      const { accepted, problem: found } = checkFiles(files, { existing: picked.length, ...options });
      setProblem(found ? describe(found) : null);
      if (accepted.length === 0) return;
      const added = accepted.map((file) => ({
        file,
        previewUrl: fileKind(file) === 'image' ? URL.createObjectURL(file) : null,
      }));
      setPicked((current) => [...current, ...added]);
    },
    [describe, picked.length],
  );

  useImperativeHandle(
    ref,
    () => ({
      addFiles,
      showProblem: (p) => setProblem(describe(p)),
      focus: () => textarea.current?.focus(),
      setText: (value) => {
        setText(value);
        textarea.current?.focus();
      },
    }),
    [addFiles, describe],
  );

  // Previews are object URLs: released when their chip goes away.
  const previews = useRef<string[]>([]);
  useEffect(() => {
    const live = picked.flatMap((p) => (p.previewUrl ? [p.previewUrl] : []));
    for (const old of previews.current) if (!live.includes(old)) URL.revokeObjectURL(old);
    previews.current = live;
  }, [picked]);
  useEffect(() => () => previews.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const voice = useVoiceInput({
    language: i18n.language,
    onText: (said) => {
      setText((current) => (current.trim() ? `${current.trimEnd()} ${said}` : said));
      // The Done button has gone: the words are there to be read, edited or sent.
      textarea.current?.focus();
    },
    onProblem: (p: VoiceProblem) => setProblem('message' in p ? p.message : t(`voice.${p.key}`)),
  });

  const trimmedUrl = url.trim();
  const canSend = !disabled && !streaming && text.trim().length > 0 && voice.state !== 'transcribing';

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    if (trimmedUrl && !isHttpUrl(trimmedUrl)) {
      setUrlError(true);
      return;
    }
    if (voice.state !== 'idle') voice.stop();
    onSend({
      text: text.trim(),
      // The message list shows these files from now on; it owns their previews.
      files: picked.map((p) => p.file),
      webSearch,
      ...(trimmedUrl ? { url: trimmedUrl } : {}),
    });
    setText('');
    setPicked([]);
    setUrl('');
    setShowUrl(false);
    setProblem(null);
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape' && streaming) {
      event.preventDefault();
      onStop();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return;
    // A pasted screenshot becomes an attachment; pasted text stays text.
    event.preventDefault();
    addFiles(files, { imagesOnly: true });
  };

  const recording = voice.state === 'listening' || voice.state === 'recording';
  const minutes = `${Math.floor(voice.seconds / 60)}:${String(voice.seconds % 60).padStart(2, '0')}`;

  return (
    <form onSubmit={submit} className="space-y-2" aria-label={t('composer.formLabel')}>
      {problem && (
        <Alert tone="error" className="flex items-start justify-between gap-3">
          <span>{problem}</span>
          <button
            type="button"
            onClick={() => setProblem(null)}
            aria-label={t('composer.dismiss')}
            className={cn('-m-1 rounded p-1 hover:bg-red-100 dark:hover:bg-red-900/40', focusRing)}
          >
            <CloseIcon />
          </button>
        </Alert>
      )}
      <div className="rounded-2xl border border-zinc-300 bg-white shadow-sm transition-shadow focus-within:border-blue-400 focus-within:ring-2 focus-within:ring-blue-500/30 dark:border-zinc-700 dark:bg-zinc-900">
        {picked.length > 0 && (
          <ul className="flex flex-wrap gap-2 px-3 pt-3" aria-label={t('composer.attachments')}>
            {picked.map((p, index) => (
              <li
                key={`${p.file.name}-${index}`}
                className="flex max-w-56 items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 py-1 pl-1 pr-1.5 text-xs dark:border-zinc-700 dark:bg-zinc-800"
              >
                {p.previewUrl ? (
                  <img src={p.previewUrl} alt="" className="h-8 w-8 shrink-0 rounded object-cover" />
                ) : (
                  <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-300">
                    <FileIcon />
                  </span>
                )}
                <span className="min-w-0">
                  <span className="block truncate font-medium text-zinc-800 dark:text-zinc-100">{p.file.name}</span>
                  <span className="block text-zinc-500 dark:text-zinc-400">
                    {formatSize(p.file.size, i18n.language)}
                  </span>
                </span>
                <button
                  type="button"
                  onClick={() => setPicked((list) => list.filter((_, i) => i !== index))}
                  aria-label={t('composer.removeAttachment', { name: p.file.name })}
                  className={cn(
                    'rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700',
                    focusRing,
                  )}
                >
                  <CloseIcon width="1em" height="1em" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {showUrl && (
          <div className="flex items-center gap-2 px-3 pt-3">
            <LinkIcon className="shrink-0 text-zinc-400" />
            <label htmlFor={`${id}-url`} className="sr-only">
              {t('composer.url')}
            </label>
            <input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setUrlError(false);
              }}
              placeholder={t('composer.urlPlaceholder')}
              aria-invalid={urlError || undefined}
              aria-describedby={urlError ? `${id}-url-error` : undefined}
              maxLength={2048}
              className="min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-400 focus:border-blue-400 focus:outline-none dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100"
            />
            <button
              type="button"
              onClick={() => {
                setUrl('');
                setShowUrl(false);
                setUrlError(false);
                textarea.current?.focus();
              }}
              aria-label={t('composer.clearUrl')}
              className={cn('rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800', focusRing)}
            >
              <CloseIcon />
            </button>
          </div>
        )}
        {urlError && (
          <p id={`${id}-url-error`} role="alert" className="px-3 pt-1 text-xs text-red-600 dark:text-red-400">
            {t('composer.urlInvalid')}
          </p>
        )}
        <label htmlFor={`${id}-text`} className="sr-only">
          {t('composer.label')}
        </label>
        <textarea
          id={`${id}-text`}
          ref={textarea}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          rows={1}
          maxLength={CHAT_TEXT_MAX}
          placeholder={t('composer.placeholder')}
          aria-describedby={`${id}-hint`}
          className="block max-h-52 min-h-[3.25rem] w-full resize-none bg-transparent px-4 pb-1 pt-3.5 text-[0.9375rem] text-zinc-900 [field-sizing:content] placeholder:text-zinc-400 focus:outline-none dark:text-zinc-100"
        />
        <div className="flex items-center gap-1 px-2 pb-2">
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPT}
            multiple
            hidden
            onChange={(e) => {
              addFiles(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            aria-label={t('composer.attach')}
            title={t('composer.attach')}
            className={iconButton()}
          >
            <PaperclipIcon />
          </button>
          <button
            type="button"
            onClick={() => setWebSearch((on) => !on)}
            aria-pressed={webSearch}
            title={t('composer.webSearchHint')}
            className={iconButton(webSearch)}
          >
            <GlobeIcon />
            <span className="sr-only sm:not-sr-only">{t('composer.webSearch')}</span>
          </button>
          <button
            type="button"
            onClick={() => {
              setShowUrl((on) => !on);
              if (showUrl) setUrl('');
            }}
            aria-pressed={showUrl}
            aria-label={t('composer.url')}
            title={t('composer.url')}
            className={iconButton(showUrl)}
          >
            <LinkIcon />
          </button>
          {recording || voice.state === 'transcribing' ? (
            <div className="flex items-center gap-1 rounded-lg bg-red-50 py-0.5 pl-2 pr-0.5 text-xs text-red-700 dark:bg-red-500/10 dark:text-red-300">
              {voice.state === 'transcribing' ? (
                <Spinner className="h-3.5 w-3.5" />
              ) : (
                <span className="h-2 w-2 animate-pulse rounded-full bg-red-500" aria-hidden="true" />
              )}
              <span role="status" className="tabular-nums">
                {voice.state === 'listening'
                  ? t('voice.listening')
                  : voice.state === 'recording'
                    ? t('voice.recording', { time: minutes })
                    : t('voice.transcribing')}
              </span>
              {recording && (
                <button
                  type="button"
                  onClick={voice.stop}
                  className={cn('rounded px-1.5 py-1 font-medium hover:bg-red-100 dark:hover:bg-red-500/20', focusRing)}
                >
                  {t('voice.stop')}
                </button>
              )}
              <button
                type="button"
                onClick={voice.cancel}
                aria-label={t('voice.cancel')}
                title={t('voice.cancel')}
                className={cn('rounded p-1 hover:bg-red-100 dark:hover:bg-red-500/20', focusRing)}
              >
                <CloseIcon width="1em" height="1em" />
              </button>
            </div>
          ) : (
            <button
              type="button"
              onClick={() => void voice.start()}
              aria-label={t('voice.start')}
              title={t('voice.start')}
              className={iconButton()}
            >
              <MicIcon />
            </button>
          )}
          <div className="ml-auto">
            <SendStopButton streaming={streaming} canSend={canSend} onStop={onStop} />
          </div>
        </div>
      </div>
      <p id={`${id}-hint`} className="hidden px-1 text-center text-xs text-zinc-400 sm:block dark:text-zinc-500">
        {t('composer.hint')}
      </p>
    </form>
  );
}
