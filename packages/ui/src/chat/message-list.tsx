import { useCallback, useDeferredValue, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatFullDateTime } from '@parley/i18n';
import { CheckIcon, CopyIcon, RefreshIcon } from '../action-icons.js';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';
import { LogoMark } from '../icons.js';
import { Markdown, safeUrl } from '../markdown/markdown.js';
import { Spinner } from '../spinner.js';
import type { AnswerState } from './answer.js';
import {
  ReadAloudButton,
  ReadAloudProblem,
  TranslateButton,
  TranslationPanel,
  useMessageTranslation,
} from './message-tools.js';
import { useChatServices } from './services.js';
import { useCopy } from './use-copy.js';
import { useSpeech, type Speech } from './use-speech.js';

/** A message as the shared list shows it. */
export type ChatViewMessage = {
  /** Stable React key. */
  key: string;
  role: 'user' | 'assistant';
  text: string;
  status: AnswerState['status'];
  /** The model's name shown over an answer. */
  modelLabel: string | null;
  /** The model that wrote an answer (its translation uses the same one). */
  model?: string | null;
  /** When it was written (ISO 8601). */
  createdAt?: string;
  /** Why the answer failed, already in words. */
  error: string | null;
  /** The HTTP status of the refusal, when the server refused (402 offers the plans). */
  errorStatus?: number | null;
  sources: AnswerState['sources'];
  /** What went with a question (e.g. the page it is about), shown as chips. */
  attachments?: string[];
};

const actionButton = cn(
  'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  focusRing,
);

export function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation('chat');
  const { copied, failed, copy } = useCopy();
  const label = failed ? t('message.copyFailed') : copied ? t('message.copied') : t('message.copy');
  return (
    <button type="button" onClick={() => void copy(text)} aria-label={label} title={label} className={actionButton}>
      {copied ? <CheckIcon className="text-emerald-600" /> : <CopyIcon />}
    </button>
  );
}

function Answer({
  message,
  speech,
  renderCode,
  onRegenerate,
}: {
  message: ChatViewMessage;
  speech: Speech;
  renderCode?: MessageListProps['renderCode'];
  onRegenerate?: (() => void) | undefined;
}) {
  const { t, i18n } = useTranslation('chat');
  const { upgradeLink } = useChatServices();
  const translation = useMessageTranslation(message.text, message.model);
  const when = message.createdAt ? formatDateTime(message.createdAt, i18n.language) : '';
  const streaming = message.status === 'streaming';
  // While tokens arrive, rendering may lag a frame behind instead of blocking typing; once the answer ends (done,
  // stopped, failed), its last text shows in the same frame as its status.
  const deferred = useDeferredValue(message.text);
  const text = streaming ? deferred : message.text;
  const citation = useCallback((n: number) => message.sources.find((s) => s.n === n)?.url, [message.sources]);
  const labels = { loadImage: (host: string) => t('message.loadImage', { host }) };
  return (
    <article
      className="chat-answer flex gap-3"
      aria-label={t('message.answerFrom', { model: message.modelLabel ?? 'Parley' })}
    >
      <LogoMark className="mt-0.5 inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-blue-500 text-xs text-white" />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="chat-meta flex flex-wrap items-center gap-2 text-xs text-zinc-500">
          {message.modelLabel && <span className="font-medium">{message.modelLabel}</span>}
          {when && (
            <time
              dateTime={message.createdAt}
              title={formatFullDateTime(message.createdAt!, i18n.language)}
              className="tabular-nums"
            >
              {when}
            </time>
          )}
          {message.status === 'stopped' && (
            <span className="chat-badge rounded-full bg-amber-50 px-1.5 py-0.5 text-amber-700">
              {t('message.stopped')}
            </span>
          )}
        </div>
        {text ? (
          <div className="chat-text" data-testid="chat-answer">
            <Markdown text={text} labels={labels} renderCode={renderCode} citation={citation} />
          </div>
        ) : streaming ? (
          <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
            <Spinner className="h-4 w-4 text-blue-500" />
            {t('message.thinking')}
          </p>
        ) : null}
        {message.status === 'failed' && (
          <p role="alert" className="chat-error text-sm text-red-600">
            {message.error || t('message.failed')}
            {message.errorStatus != null && upgradeLink && (
              <span className="mt-1 block">{upgradeLink({ status: message.errorStatus })}</span>
            )}
          </p>
        )}
        {message.sources.length > 0 && (
          <nav aria-label={t('message.sources')}>
            <ol className="chat-sources flex flex-wrap gap-2 text-xs">
              {message.sources.map((source) => {
                const href = safeUrl(source.url, ['http:', 'https:']);
                return (
                  <li key={source.n}>
                    {href ? (
                      <a href={href} target="_blank" rel="noopener noreferrer nofollow" className={focusRing}>
                        [{source.n}] {source.title}
                      </a>
                    ) : (
                      <span>
                        [{source.n}] {source.title}
                      </span>
                    )}
                  </li>
                );
              })}
            </ol>
          </nav>
        )}
        <TranslationPanel translation={translation} renderCode={renderCode} />
        <ReadAloudProblem speech={speech} messageKey={message.key} />
        {!streaming && (message.text || onRegenerate) && (
          <div className="flex flex-wrap items-center gap-0.5">
            {message.text && (
              <>
                <CopyButton text={message.text} />
                <ReadAloudButton speech={speech} messageKey={message.key} text={message.text} />
                <TranslateButton translation={translation} />
              </>
            )}
            {onRegenerate && (
              <button
                type="button"
                onClick={onRegenerate}
                aria-label={t('message.regenerate')}
                title={t('message.regenerate')}
                className={actionButton}
              >
                <RefreshIcon />
              </button>
            )}
          </div>
        )}
      </div>
    </article>
  );
}

function Question({ message }: { message: ChatViewMessage }) {
  const { t } = useTranslation('chat');
  return (
    <div className="chat-question flex flex-col items-end gap-1">
      {message.attachments && message.attachments.length > 0 && (
        <ul className="chat-chips flex flex-wrap gap-1 text-xs">
          {message.attachments.map((name) => (
            <li key={name} className="chat-chip">
              {name}
            </li>
          ))}
        </ul>
      )}
      <div className="chat-bubble max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-blue-500 px-4 py-2.5 text-white">
        <span className="sr-only">{t('message.you')}: </span>
        {message.text}
      </div>
      <CopyButton text={message.text} />
    </div>
  );
}

export type MessageListProps = {
  messages: ChatViewMessage[];
  /** Some answer is streaming. */
  busy: boolean;
  renderCode?: (code: string, language: string) => ReactNode;
  /** Offered on the last answer when nothing is streaming: ask for that answer again. */
  onRegenerate?: () => void;
};

/**
 * The conversation: questions, answers rendered as safe Markdown, with copy, read aloud, translate and the stopped /
 * failed states. Translation goes through the ChatServicesProvider around it.
 */
export function MessageList({ messages, busy, renderCode, onRegenerate }: MessageListProps) {
  const { t, i18n } = useTranslation('chat');
  const speech = useSpeech(i18n.language);
  return (
    <div
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-busy={busy}
      aria-label={t('conversation')}
      className="chat-log space-y-6"
    >
      {messages.map((message, i) =>
        message.role === 'user' ? (
          <Question key={message.key} message={message} />
        ) : (
          <Answer
            key={message.key}
            message={message}
            speech={speech}
            renderCode={renderCode}
            onRegenerate={!busy && i === messages.length - 1 ? onRegenerate : undefined}
          />
        ),
      )}
    </div>
  );
}
