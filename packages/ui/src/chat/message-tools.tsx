import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_IDS } from '@parley/contract/values';
import { SpeakerIcon, StopIcon, TranslateIcon } from '../action-icons.js';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';
import { CloseIcon } from '../icons.js';
import { Markdown } from '../markdown/markdown.js';
import { Spinner } from '../spinner.js';
import { useChatServices } from './services.js';
import { languageName, TranslateMenu } from './translate-menu.js';
import type { Speech } from './use-speech.js';

/** The small square buttons under a message (copy, read aloud, translate, regenerate, edit). */
export const messageActionButton = cn(
  'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  focusRing,
);

export function MessageActionButton({
  label,
  onClick,
  children,
  pressed,
  disabled,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  pressed?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      className={messageActionButton}
    >
      {children}
    </button>
  );
}

/** Read aloud / Stop reading, for browsers with speech synthesis. */
export function ReadAloudButton({ speech, messageKey, text }: { speech: Speech; messageKey: string; text: string }) {
  const { t } = useTranslation('chat');
  if (!speech.supported) return null;
  const speaking = speech.speaking === messageKey;
  return (
    <MessageActionButton
      label={speaking ? t('message.stopReading') : t('message.readAloud')}
      pressed={speaking}
      onClick={() => speech.toggle(messageKey, text)}
    >
      {speaking ? <StopIcon /> : <SpeakerIcon />}
    </MessageActionButton>
  );
}

/** Why a message could not be read aloud, under that message. */
export function ReadAloudProblem({ speech, messageKey }: { speech: Speech; messageKey: string }) {
  const { t } = useTranslation('chat');
  if (speech.failed !== messageKey) return null;
  return (
    <p role="alert" className="text-xs text-red-600 dark:text-red-400">
      {t('message.readAloudFailed')}
    </p>
  );
}

const isModelId = (model: string | null | undefined): model is string =>
  (MODEL_IDS as readonly string[]).includes(model ?? '');

type TranslationState =
  | { status: 'idle' }
  | { status: 'pending'; target: string }
  | { status: 'done'; target: string; text: string }
  | { status: 'failed'; target: string; error: string; cause: unknown };

/**
 * A translation asked for from a message, shown under it. It uses the model that wrote the message: the one in the
 * settings may not be usable on this server.
 */
export function useMessageTranslation(text: string, model: string | null | undefined) {
  const { t } = useTranslation('chat');
  const { translate, errorText } = useChatServices();
  const [state, setState] = useState<TranslationState>({ status: 'idle' });
  const asked = useRef(0);
  const pick = useCallback(
    (code: string) => {
      const id = ++asked.current;
      setState({ status: 'pending', target: code });
      translate({ text, target: languageName(code, 'en'), ...(isModelId(model) ? { model } : {}) }).then(
        (translated) => id === asked.current && setState({ status: 'done', target: code, text: translated }),
        (error: unknown) =>
          id === asked.current &&
          setState({
            status: 'failed',
            target: code,
            error: errorText(error) ?? t('message.translateFailed'),
            cause: error,
          }),
      );
    },
    [text, model, translate, errorText, t],
  );
  const close = useCallback(() => {
    asked.current += 1;
    setState({ status: 'idle' });
  }, []);
  return { state, pick, close };
}

export type MessageTranslation = ReturnType<typeof useMessageTranslation>;

/** The Translate button: a menu of languages. */
export function TranslateButton({ translation }: { translation: MessageTranslation }) {
  const { t } = useTranslation('chat');
  return (
    <TranslateMenu
      label={t('message.translate')}
      icon={<TranslateIcon />}
      buttonClass={messageActionButton}
      onPick={translation.pick}
    />
  );
}

/** The translation under a message: while it is written, the text, or why it failed. */
export function TranslationPanel({
  translation,
  renderCode,
}: {
  translation: MessageTranslation;
  renderCode?: (code: string, language: string) => ReactNode;
}) {
  const { t, i18n } = useTranslation('chat');
  const { upgradeLink } = useChatServices();
  const { state } = translation;
  if (state.status === 'idle') return null;
  const language = languageName(state.target, i18n.language);
  const labels = { loadImage: (host: string) => t('message.loadImage', { host }) };
  return (
    <section
      aria-label={t('message.translation', { language })}
      className="chat-translation rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-sm dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="mb-1 flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold text-zinc-500 dark:text-zinc-400">
          {t('message.translation', { language })}
        </h3>
        <button
          type="button"
          onClick={translation.close}
          aria-label={t('message.closeTranslation')}
          className={cn('rounded p-0.5 text-zinc-400 hover:text-zinc-700', focusRing)}
        >
          <CloseIcon width="1em" height="1em" />
        </button>
      </div>
      {state.status === 'pending' ? (
        <p className="flex items-center gap-2 text-zinc-500" role="status">
          <Spinner className="h-3.5 w-3.5" /> {t('message.translating')}
        </p>
      ) : state.status === 'failed' ? (
        <div className="space-y-1">
          <p role="alert" className="text-red-600 dark:text-red-400">
            {state.error}
          </p>
          {upgradeLink?.(state.cause)}
        </div>
      ) : (
        <div lang={state.target} className="text-zinc-800 dark:text-zinc-100">
          <Markdown text={state.text} labels={labels} renderCode={renderCode} />
        </div>
      )}
    </section>
  );
}
