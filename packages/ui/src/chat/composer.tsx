import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SendIcon, StopIcon } from '../action-icons.js';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';

export type BasicComposerProps = {
  streaming: boolean;
  /** No model can answer: typing is allowed, sending is not. */
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** What goes with the next question (attachment chips), shown above the text. */
  chips?: ReactNode;
};

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

/** A message box without files or voice: Enter sends, Shift+Enter adds a line, Esc (or the button) stops. */
export function BasicComposer({ streaming, disabled = false, onSend, onStop, chips }: BasicComposerProps) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const canSend = !disabled && !streaming && text.trim().length > 0;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onSend(text.trim());
    setText('');
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
  return (
    <form
      onSubmit={submit}
      aria-label={t('composer.formLabel')}
      className="chat-composer rounded-2xl border border-zinc-300 bg-white shadow-sm transition-shadow focus-within:border-blue-400 focus-within:ring-2 focus-within:ring-blue-500/30 dark:border-zinc-700 dark:bg-zinc-900"
    >
      {chips}
      <textarea
        aria-label={t('composer.label')}
        placeholder={t('composer.placeholder')}
        value={text}
        rows={2}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        className="block max-h-52 min-h-[3.25rem] w-full resize-none bg-transparent px-3.5 pb-1 pt-3 text-[0.9375rem] text-zinc-900 [field-sizing:content] placeholder:text-zinc-400 focus:outline-none dark:text-zinc-100"
      />
      <div className="chat-composer-actions flex justify-end px-2 pb-2">
        <SendStopButton streaming={streaming} canSend={canSend} onStop={onStop} size="h-8 w-8" />
      </div>
    </form>
  );
}
