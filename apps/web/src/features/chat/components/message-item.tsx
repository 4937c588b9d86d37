import { memo, useCallback, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PencilIcon, RefreshIcon } from '@parley/ui/action-icons';
import { Markdown, safeUrl } from '@parley/ui/markdown';
import { Alert, Button, LogoMark, Spinner, cn, focusRing } from '@parley/ui';
import { formatDateTime, formatFullDateTime } from '@parley/i18n';
import {
  CopyButton,
  MessageActionButton as ActionButton,
  ReadAloudButton,
  ReadAloudProblem,
  TranslateButton,
  TranslationPanel,
  useMessageTranslation,
  type Speech,
} from '@parley/ui/chat';
import { MessageAttachments } from './attachments';
import { CodeBlock } from './code-block';
import type { ThreadMessage } from './use-chat-session';

const renderCode = (code: string, language: string) => <CodeBlock code={code} language={language} />;

/** When a message was written, in the format of every list of the product. */
function MessageTime({ value }: { value: string }) {
  const { i18n } = useTranslation('chat');
  const shown = formatDateTime(value, i18n.language);
  if (!shown) return null;
  return (
    <time dateTime={value} title={formatFullDateTime(value, i18n.language)} className="tabular-nums">
      {shown}
    </time>
  );
}

type Props = {
  message: ThreadMessage;
  /** The last question (it can be edited) and the last answer (it can be regenerated). */
  isLastQuestion: boolean;
  isLastAnswer: boolean;
  /** Some answer is streaming: editing and regenerating wait. */
  busy: boolean;
  speech: Speech;
  keysPath: string;
  plansPath: string;
  onEdit: (key: string, text: string) => void;
  onRegenerate: () => void;
  onRetry: () => void;
};

function UserMessage({ message, isLastQuestion, busy, onEdit }: Props) {
  const { t } = useTranslation('chat');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.text);
  const canEdit = isLastQuestion && !busy && Boolean(message.id);
  const save = () => {
    if (!draft.trim()) return;
    setEditing(false);
    onEdit(message.key, draft.trim());
  };

  return (
    <div className="group flex flex-col items-end gap-2">
      <MessageAttachments attachments={message.attachments} localFiles={message.localFiles} url={message.url} />
      {editing ? (
        <div className="w-full max-w-[85%] space-y-2 rounded-2xl border border-blue-300 bg-white p-3 dark:border-blue-500/50 dark:bg-zinc-900">
          <label className="sr-only" htmlFor={`edit-${message.key}`}>
            {t('message.editLabel')}
          </label>
          <textarea
            id={`edit-${message.key}`}
            value={draft}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                save();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                setEditing(false);
              }
            }}
            className="block max-h-60 min-h-16 w-full resize-none bg-transparent text-[0.9375rem] text-zinc-900 [field-sizing:content] focus:outline-none dark:text-zinc-100"
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" className="px-3 py-1.5" onClick={() => setEditing(false)}>
              {t('message.cancel')}
            </Button>
            <Button className="px-3 py-1.5" disabled={!draft.trim()} onClick={save}>
              {t('message.saveAndSend')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-blue-500 px-4 py-2.5 text-[0.9375rem] text-white">
          <span className="sr-only">{t('message.you')}: </span>
          {message.text}
        </div>
      )}
      {!editing && (
        <div className="flex gap-0.5 opacity-100 transition-opacity sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
          <CopyButton text={message.text} />
          {canEdit && (
            <ActionButton
              label={t('message.edit')}
              onClick={() => {
                setDraft(message.text);
                setEditing(true);
              }}
            >
              <PencilIcon />
            </ActionButton>
          )}
        </div>
      )}
    </div>
  );
}

function AssistantMessage({ message, isLastAnswer, busy, speech, keysPath, plansPath, onRegenerate, onRetry }: Props) {
  const { t } = useTranslation('chat');
  const translation = useMessageTranslation(message.text, message.model);
  const streaming = message.status === 'streaming';
  // While tokens arrive, rendering may lag a frame behind instead of blocking typing; once the answer ends (done,
  // stopped, failed), its last text shows in the same frame as its status.
  const deferred = useDeferredValue(message.text);
  const text = streaming ? deferred : message.text;
  const citation = useCallback((n: number) => message.sources.find((s) => s.n === n)?.url, [message.sources]);
  const labels = { loadImage: (host: string) => t('message.loadImage', { host }) };
  const error = message.error;

  return (
    <article className="flex gap-3" aria-label={t('message.answerFrom', { model: message.modelLabel ?? 'Parley' })}>
      <LogoMark className="mt-0.5 inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-blue-500 text-xs text-white" />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          <span className="font-medium text-zinc-700 dark:text-zinc-200">{message.modelLabel ?? message.model}</span>
          {message.keySource === 'own' && (
            <span className="rounded-full bg-zinc-100 px-1.5 py-0.5 dark:bg-zinc-800">{t('message.ownKey')}</span>
          )}
          {message.status === 'stopped' && (
            <span className="rounded-full bg-amber-50 px-1.5 py-0.5 text-amber-700 dark:bg-amber-500/10 dark:text-amber-300">
              {t('message.stopped')}
            </span>
          )}
          <MessageTime value={message.createdAt} />
        </div>

        {text ? (
          <div className="text-[0.9375rem] text-zinc-800 dark:text-zinc-100">
            <Markdown text={text} labels={labels} renderCode={renderCode} citation={citation} />
          </div>
        ) : streaming ? (
          <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
            <Spinner className="h-4 w-4 text-blue-500" />
            {t('message.thinking')}
          </p>
        ) : null}
        {streaming && text && (
          <span className="inline-block h-4 w-1.5 animate-pulse rounded-sm bg-blue-500" aria-hidden="true" />
        )}

        {error && (
          <Alert tone="error" className="space-y-2">
            <p>{error.message || t('message.failed')}</p>
            <div className="flex flex-wrap gap-2">
              {isLastAnswer && (
                <Button variant="secondary" className="px-3 py-1" onClick={onRetry} disabled={busy}>
                  <RefreshIcon width="1em" height="1em" /> {t('message.retry')}
                </Button>
              )}
              {error.status === 402 && (
                <Link to={plansPath} className={cn('self-center text-sm font-medium underline', focusRing)}>
                  {t('message.seePlans')}
                </Link>
              )}
              {(error.code === 'MODEL_UNAVAILABLE' || error.code === 'MODEL_NO_VISION') && (
                <Link to={keysPath} className={cn('self-center text-sm font-medium underline', focusRing)}>
                  {t('message.addKey')}
                </Link>
              )}
            </div>
          </Alert>
        )}

        {message.sources.length > 0 && (
          <nav aria-label={t('message.sources')} className="space-y-1">
            <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-400">{t('message.sources')}</h3>
            <ol className="flex flex-wrap gap-2">
              {message.sources.map((source) => {
                const href = safeUrl(source.url, ['http:', 'https:']);
                const host = href ? new URL(href).hostname.replace(/^www\./, '') : '';
                return (
                  <li key={source.n}>
                    {href ? (
                      <a
                        href={href}
                        target="_blank"
                        rel="noopener noreferrer nofollow"
                        className={cn(
                          'flex max-w-64 items-center gap-1.5 rounded-lg border border-zinc-200 px-2 py-1 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800',
                          focusRing,
                        )}
                      >
                        <span className="font-semibold text-blue-600 dark:text-blue-400">[{source.n}]</span>
                        <span className="truncate text-zinc-700 dark:text-zinc-200">{source.title}</span>
                        <span className="shrink-0 text-zinc-400">{host}</span>
                      </a>
                    ) : (
                      <span className="text-xs text-zinc-500">
                        [{source.n}] {source.title}
                      </span>
                    )}
                  </li>
                );
              })}
            </ol>
          </nav>
        )}

        {message.citedPages.length > 0 && (
          <p className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
            <span>{t('message.citedPages')}</span>
            <span className="rounded-full bg-zinc-100 px-2 py-0.5 font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200">
              {t('message.pages', { pages: message.citedPages.join(', ') })}
            </span>
          </p>
        )}

        <TranslationPanel translation={translation} renderCode={renderCode} />
        <ReadAloudProblem speech={speech} messageKey={message.key} />

        {!streaming && message.text && (
          <div className="flex flex-wrap gap-0.5">
            <CopyButton text={message.text} />
            <ReadAloudButton speech={speech} messageKey={message.key} text={message.text} />
            <TranslateButton translation={translation} />
            {isLastAnswer && (
              <ActionButton label={t('message.regenerate')} onClick={onRegenerate} disabled={busy}>
                <RefreshIcon />
              </ActionButton>
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/** One message of the conversation with its actions. */
export const MessageItem = memo(function MessageItem(props: Props) {
  return props.message.role === 'user' ? <UserMessage {...props} /> : <AssistantMessage {...props} />;
});
