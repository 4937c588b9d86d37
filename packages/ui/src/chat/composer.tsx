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
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_TEXT_MAX } from '@parley/contract/values';
import { formatFileSize, formatNumber } from '@parley/i18n';
import { FileIcon, LinkIcon, MicIcon, PaperclipIcon, SendIcon, StopIcon } from '../action-icons.js';
import { Alert } from '../alert.js';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';
import { CloseIcon, GlobeIcon } from '../icons.js';
import { Spinner } from '../spinner.js';
import { ACCEPT, checkFiles, fileKind, type FileProblem } from './file-checks.js';
import { useChatServices } from './services.js';
import { useVoiceInput, type VoiceProblem } from './use-voice-input.js';

/**
 * The round button at the end of a message box: Send (a submit button, enabled when there is something to send), or
 * Stop while an answer streams.
 */
export function SendStopButton({
  streaming,
  canSend,
  onStop,
  size = 'h-9 w-9',
}: {
  streaming: boolean;
  canSend: boolean;
  onStop: () => void;
  /** Tailwind height and width classes. */
  size?: string;
}) {
  const { t } = useTranslation('chat');
  return streaming ? (
    <button
      type="button"
      onClick={onStop}
      aria-label={t('composer.stop')}
      title={t('composer.stopHint')}
      className={cn(
        'inline-flex items-center justify-center rounded-full bg-zinc-900 text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300',
        size,
        focusRing,
      )}
    >
      <StopIcon />
    </button>
  ) : (
    <button
      type="submit"
      disabled={!canSend}
      aria-label={t('composer.send')}
      title={t('composer.send')}
      className={cn(
        'inline-flex items-center justify-center rounded-full bg-blue-500 text-white hover:bg-blue-600 disabled:cursor-not-allowed disabled:bg-zinc-200 disabled:text-zinc-400 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500',
        size,
        focusRing,
      )}
    >
      <SendIcon />
    </button>
  );
}

export type ComposerSubmit = { text: string; files: File[]; url?: string; webSearch: boolean };

export type ComposerHandle = {
  /** Files dropped on the chat or pasted; `imagesOnly` where only an image makes sense. */
  addFiles: (files: File[], options?: { imagesOnly?: boolean }) => void;
  /** Tells the person about a problem (e.g. something dropped that is not a file). */
  showProblem: (problem: FileProblem) => void;
  focus: () => void;
  setText: (text: string) => void;
};

export type ComposerProps = {
  ref?: Ref<ComposerHandle>;
  streaming: boolean;
  /** No model can answer: typing is allowed, sending is not. Not asked while `pending`. */
  disabled?: boolean;
  /**
   * What a message needs is still loading (which model answers): a message sent now is held, text and files in the
   * box, and goes as soon as it has loaded, or stays there when it turns out no model can answer (`disabled` then).
   */
  pending?: boolean;
  onSend: (input: ComposerSubmit) => void;
  onStop: () => void;
  /**
   * What else goes with the next question, as `<li>` chips before the files picked here (the extension's page and
   * captures), and how many files among them count towards the limit.
   */
  chips?: ReactNode;
  attachedCount?: number;
  /** Focus the message box when it appears (on devices with a keyboard: a phone would open its keyboard). */
  autoFocus?: boolean;
  /** The keyboard hint under the box; narrow layouts leave it out. */
  hint?: boolean;
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
export function Composer({
  ref,
  streaming,
  disabled = false,
  pending = false,
  onSend,
  onStop,
  chips,
  attachedCount = 0,
  autoFocus = false,
  hint = true,
}: ComposerProps) {
  const { t, i18n } = useTranslation('chat');
  const services = useChatServices();
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
  const [microphoneDenied, setMicrophoneDenied] = useState(false);
  // The failed call behind a problem, when there is one (a plan may be the way out of it).
  const [problemCause, setProblemCause] = useState<unknown>(null);
  const showProblem = useCallback((message: string | null, denied = false, cause: unknown = null) => {
    setProblem(message);
    setMicrophoneDenied(denied);
    setProblemCause(cause);
  }, []);

  const describe = useCallback(
    (p: FileProblem) => ('limit' in p ? t(`files.${p.key}`, { limit: p.limit }) : t(`files.${p.key}`)),
    [t],
  );

  const addFiles = useCallback(
    (files: File[], options: { imagesOnly?: boolean } = {}) => {
      const { accepted, problem: found } = checkFiles(files, { existing: attachedCount + picked.length, ...options });
      showProblem(found ? describe(found) : null);
      if (accepted.length === 0) return;
      const added = accepted.map((file) => ({
        file,
        previewUrl: fileKind(file) === 'image' ? URL.createObjectURL(file) : null,
      }));
      setPicked((current) => [...current, ...added]);
    },
    [attachedCount, describe, picked.length, showProblem],
  );

  useImperativeHandle(
    ref,
    () => ({
      addFiles,
      showProblem: (p) => showProblem(describe(p)),
      focus: () => textarea.current?.focus(),
      setText: (value) => {
        setText(value);
        textarea.current?.focus();
      },
    }),
    [addFiles, describe, showProblem],
  );

  useEffect(() => {
    if (autoFocus && window.matchMedia?.('(pointer: fine)').matches !== false) textarea.current?.focus();
  }, [autoFocus]);

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
    transcribe: services.transcribe,
    onText: (said) => {
      setText((current) => (current.trim() ? `${current.trimEnd()} ${said}` : said));
      // The Done button has gone: the words are there to be read, edited or sent.
      textarea.current?.focus();
    },
    onProblem: (p: VoiceProblem) =>
      'error' in p
        ? showProblem(services.errorText(p.error) ?? t('voice.failed'), false, p.error)
        : showProblem(t(`voice.${p.key}`), p.key === 'denied'),
  });

  const trimmedUrl = url.trim();
  // A message over the limit is kept whole in the box and not sent (the field does not cut what is pasted into it):
  // its length is shown from nine tenths of the limit on, and why it cannot be sent once over it.
  const length = text.trim().length;
  const tooLong = length > CHAT_TEXT_MAX;
  const showLength = length >= CHAT_TEXT_MAX * 0.9;
  const canSend = (pending || !disabled) && !streaming && length > 0 && !tooLong && voice.state !== 'transcribing';
  // Sent while `pending`: it goes when that ends, unless the text is edited in the meantime (then it waits for Enter).
  const [held, setHeld] = useState(false);

  const submit = (event?: FormEvent, { refocus = true } = {}) => {
    event?.preventDefault();
    if (!canSend) return;
    if (trimmedUrl && !isHttpUrl(trimmedUrl)) {
      setUrlError(true);
      return;
    }
    if (pending) {
      setHeld(true);
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
    showProblem(null);
    if (refocus) textarea.current?.focus();
  };

  useEffect(() => {
    if (!held || pending) return;
    setHeld(false);
    // Does nothing when no model can answer after all: the message stays in the box. The focus stays where the person
    // has taken it since.
    submit(undefined, { refocus: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the wait ends, with the box as it is then
  }, [held, pending]);

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
    <form
      onSubmit={(event) => submit(event)}
      className="space-y-2"
      aria-label={t('composer.formLabel')}
      aria-busy={held || undefined}
    >
      {problem && (
        <Alert tone="error" className="flex items-start justify-between gap-3">
          <span>
            {problem}
            {microphoneDenied && services.microphoneHelp && (
              <span className="mt-1 block">{services.microphoneHelp}</span>
            )}
            {problemCause !== null && services.upgradeLink && (
              <span className="mt-1 block">{services.upgradeLink(problemCause)}</span>
            )}
          </span>
          <button
            type="button"
            onClick={() => showProblem(null)}
            aria-label={t('composer.dismiss')}
            className={cn('-m-1 rounded p-1 hover:bg-red-100 dark:hover:bg-red-900/40', focusRing)}
          >
            <CloseIcon />
          </button>
        </Alert>
      )}
      <div className="rounded-2xl border border-zinc-300 bg-white shadow-sm transition-shadow focus-within:border-blue-400 focus-within:ring-2 focus-within:ring-blue-500/30 dark:border-zinc-700 dark:bg-zinc-900">
        {(picked.length > 0 || chips) && (
          <ul className="flex flex-wrap gap-2 px-3 pt-3" aria-label={t('composer.attachments')}>
            {chips}
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
                    {formatFileSize(p.file.size, i18n.language)}
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
          onChange={(e) => {
            setText(e.target.value);
            setHeld(false);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          rows={1}
          placeholder={t('composer.placeholder')}
          aria-invalid={tooLong || undefined}
          aria-describedby={[showLength && `${id}-length`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined}
          className="block max-h-52 min-h-[3.25rem] w-full resize-none bg-transparent px-4 pb-1 pt-3.5 text-[0.9375rem] text-zinc-900 [field-sizing:content] placeholder:text-zinc-400 focus:outline-none dark:text-zinc-100"
        />
        {showLength && (
          <p
            id={`${id}-length`}
            role={tooLong ? 'alert' : undefined}
            className={cn(
              'px-4 pt-1 text-xs tabular-nums',
              tooLong ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400',
            )}
          >
            {t(tooLong ? 'composer.tooLong' : 'composer.length', {
              length: formatNumber(length, i18n.language),
              max: formatNumber(CHAT_TEXT_MAX, i18n.language),
            })}
          </p>
        )}
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
      {hint && (
        <p id={`${id}-hint`} className="hidden px-1 text-center text-xs text-zinc-400 sm:block dark:text-zinc-500">
          {t('composer.hint')}
        </p>
      )}
    </form>
  );
}
