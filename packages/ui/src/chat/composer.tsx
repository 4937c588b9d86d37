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
    <form onSubmit={submit} aria-label={t('composer.formLabel')} className="chat-composer">
      {chips}
      <textarea
        aria-label={t('composer.label')}
        placeholder={t('composer.placeholder')}
        value={text}
        rows={2}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        className="block w-full resize-none bg-transparent focus:outline-none"
      />
      <div className="chat-composer-actions flex justify-end">
        {streaming ? (
          <button type="button" onClick={onStop} aria-label={t('composer.stop')} title={t('composer.stopHint')}>
            <StopIcon /> {t('composer.stop')}
          </button>
        ) : (
          <button type="submit" disabled={!canSend} aria-label={t('composer.send')} className={cn(focusRing)}>
            <SendIcon /> {t('composer.send')}
          </button>
        )}
      </div>
    </form>
  );
}
