import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { ModelId } from '@parley/contract';
import { HistoryIcon, PlusIcon } from '@parley/ui/action-icons';
import { Alert, CloseIcon, LogoMark, SkeletonBar, cn, focusRing } from '@parley/ui';
import {
  ChatServicesProvider,
  Composer,
  ModelPicker,
  modelName,
  useSpeech,
  type ChatServices,
  type ComposerHandle,
  type ComposerSubmit,
} from '@parley/ui/chat';
import { ApiError, errorMessage } from '../../../lib/api';
import { useModels } from '../../../lib/models';
import { useSettings } from '../../../lib/settings';
import { useChatHistory } from '../api/chat-api';
import { HistorySidebar } from './history-sidebar';
import { MessageItem } from './message-item';
import { useChatSession } from './use-chat-session';
import { useWebChatServices } from './use-web-chat-services';

type Props = {
  /** Where a person adds their own API key (settings). */
  keysPath: string;
  /** Where plans and credits are shown. */
  plansPath: string;
};

const SUGGESTIONS = ['explain', 'write', 'summarize', 'polish'] as const;

/**
 * The full-page chat: history on the side, the conversation, and the composer. The address holds the open
 * conversation (/chat/:chatId); a new conversation gets its address when the server names it.
 */
export function ChatScreen(props: Props) {
  const { t } = useTranslation('chat');
  const web = useWebChatServices();
  const { plansPath } = props;
  // A translation or a transcription refused for credits or plan (402) leads to the plans, as an answer does.
  const services = useMemo<ChatServices>(
    () => ({
      ...web,
      upgradeLink: (error) =>
        error instanceof ApiError && error.status === 402 ? (
          <Link to={plansPath} className={cn('font-medium underline', focusRing)}>
            {t('message.seePlans')}
          </Link>
        ) : null,
    }),
    [web, plansPath, t],
  );
  return (
    <ChatServicesProvider value={services}>
      <Chat {...props} />
    </ChatServicesProvider>
  );
}

function Chat({ keysPath, plansPath }: Props) {
  const { t, i18n } = useTranslation('chat');
  const { chatId: routeChatId } = useParams();
  const navigate = useNavigate();
  const models = useModels();
  const settings = useSettings();
  const [chosenModel, setChosenModel] = useState<ModelId | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const composer = useRef<ComposerHandle>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const speech = useSpeech(i18n.language);

  const labelOf = useCallback(
    (id: string) => {
      const model = models.data?.find((m) => m.id === id);
      return model ? modelName(t, model) : null;
    },
    [models.data, t],
  );
  const session = useChatSession({
    onChatCreated: (id) => void navigate(`/chat/${id}`, { replace: true }),
    labelOf,
  });

  // The model: the one picked here, else the user's setting when usable, else the first usable one.
  const available = (models.data ?? []).filter((m) => m.available);
  const model: ModelId | null =
    (chosenModel && available.some((m) => m.id === chosenModel) ? chosenModel : null) ??
    available.find((m) => m.id === settings.data?.model)?.id ??
    available[0]?.id ??
    null;
  // Until the models and the setting are known, a message sent waits for them rather than going nowhere.
  const modelPending = models.isPending || settings.isPending;

  // Opening a conversation from the address (a history link, a reload, back/forward).
  const toLoad = routeChatId && routeChatId !== session.chatId ? routeChatId : undefined;
  const history = useChatHistory(toLoad);
  const { load, reset } = session;
  useEffect(() => {
    if (!history.data || history.data.chatHistoryId !== toLoad) return;
    load(history.data);
    stickToBottom.current = true;
    if (models.data?.some((m) => m.id === history.data.model && m.available))
      setChosenModel(history.data.model as ModelId);
  }, [history.data, toLoad, load, models.data]);

  // Back to /chat (browser back, or the conversation was deleted): a new conversation.
  const previousRoute = useRef(routeChatId);
  useEffect(() => {
    if (previousRoute.current && !routeChatId) reset();
    previousRoute.current = routeChatId;
  }, [routeChatId, reset]);

  const newChat = useCallback(() => {
    // Leaving /chat/:id resets the page (the effect above); resetting before the address changes would ask for the
    // conversation of the address again, a deleted one among them.
    if (!routeChatId) reset();
    setHistoryOpen(false);
    void navigate('/chat');
    composer.current?.focus();
  }, [navigate, reset, routeChatId]);

  // Esc stops the answer from anywhere on the page.
  const { streaming, stop } = session;
  useEffect(() => {
    if (!streaming) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        stop();
        composer.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [streaming, stop]);

  // Follow the answer as it grows, unless the reader scrolled up. An empty chat stays at its top (its heading).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stickToBottom.current && session.messages.length > 0) el.scrollTop = el.scrollHeight;
  }, [session.messages]);
  const onScroll = () => {
    const el = scroller.current;
    if (el) stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };

  const send = (input: ComposerSubmit) => {
    if (!model) return;
    stickToBottom.current = true;
    session.send({ ...input, model });
  };

  const onDrag = (event: DragEvent) => {
    const types = Array.from(event.dataTransfer.types);
    if (!types.includes('Files') && !types.includes('text/uri-list')) return;
    // Without this the browser would open a dropped file or link in place of the app.
    event.preventDefault();
    if (event.type === 'dragenter' || event.type === 'dragover') setDragging(true);
    else if (event.type === 'dragleave' && !event.currentTarget.contains(event.relatedTarget as Node | null))
      setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    // An image dragged from a web page arrives as a link, not as a file.
    if (files.length === 0) composer.current?.showProblem({ key: 'notImage' });
    else composer.current?.addFiles(files);
    composer.current?.focus();
  };

  const lastQuestion = session.messages.findLastIndex((m) => m.role === 'user');
  const lastAnswer = session.messages.findLastIndex((m) => m.role === 'assistant');
  const noModel = models.isSuccess && available.length === 0;
  const loadingChat = Boolean(toLoad) && history.isPending;

  const sidebar = (
    <HistorySidebar
      activeId={session.chatId}
      onNewChat={newChat}
      onNavigate={() => setHistoryOpen(false)}
      onActiveDeleted={newChat}
    />
  );

  return (
    <div className="flex h-[calc(100dvh-3.5rem)] min-h-0">
      <aside
        aria-label={t('history.title')}
        className="hidden w-72 shrink-0 border-r border-zinc-200 bg-white lg:block dark:border-zinc-800 dark:bg-zinc-950"
      >
        {sidebar}
      </aside>
      {historyOpen && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-zinc-950/40" aria-hidden="true" onClick={() => setHistoryOpen(false)} />
          <aside
            aria-label={t('history.title')}
            className="absolute inset-y-0 left-0 flex w-[min(20rem,85vw)] flex-col bg-white shadow-xl dark:bg-zinc-950"
            onKeyDown={(e) => {
              if (e.key === 'Escape') setHistoryOpen(false);
            }}
          >
            <div className="flex justify-end px-2 pt-2">
              <button
                type="button"
                onClick={() => setHistoryOpen(false)}
                aria-label={t('history.close')}
                className={cn('rounded-md p-2 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800', focusRing)}
              >
                <CloseIcon />
              </button>
            </div>
            <div className="min-h-0 flex-1">{sidebar}</div>
          </aside>
        </div>
      )}

      <section
        aria-label={t('title')}
        className="relative flex min-w-0 flex-1 flex-col"
        onDragEnter={onDrag}
        onDragOver={onDrag}
        onDragLeave={onDrag}
        onDrop={onDrop}
      >
        <div className="flex items-center gap-1 border-b border-zinc-200 bg-white/70 px-2 py-1.5 dark:border-zinc-800 dark:bg-zinc-950/70">
          <button
            type="button"
            onClick={() => setHistoryOpen(true)}
            aria-label={t('history.open')}
            title={t('history.open')}
            className={cn(
              'rounded-md p-2 text-zinc-600 hover:bg-zinc-100 lg:hidden dark:text-zinc-300 dark:hover:bg-zinc-800',
              focusRing,
            )}
          >
            <HistoryIcon />
          </button>
          {models.isPending ? (
            <SkeletonBar className="h-7 w-40" />
          ) : models.isError ? (
            <span role="alert" className="px-2 text-sm text-red-600">
              {errorMessage(models.error)}
            </span>
          ) : (
            <ModelPicker
              models={models.data}
              value={model}
              onChange={setChosenModel}
              preferred={settings.data?.model}
              addKeyLink={(className, label) => (
                <Link to={keysPath} className={className}>
                  {label}
                </Link>
              )}
            />
          )}
          <button
            type="button"
            onClick={newChat}
            aria-label={t('history.newChat')}
            title={t('history.newChat')}
            className={cn(
              'ml-auto rounded-md p-2 text-zinc-600 hover:bg-zinc-100 lg:hidden dark:text-zinc-300 dark:hover:bg-zinc-800',
              focusRing,
            )}
          >
            <PlusIcon />
          </button>
        </div>

        <div ref={scroller} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto w-full max-w-3xl px-4 py-6">
            {loadingChat ? (
              <div className="space-y-6" role="status" aria-label={t('loadingChat')}>
                <SkeletonBar className="ml-auto h-10 w-2/3" />
                <SkeletonBar className="h-24 w-full" />
                <SkeletonBar className="ml-auto h-10 w-1/2" />
              </div>
            ) : toLoad && history.isError ? (
              <Alert tone="error" className="space-y-2">
                <p>{errorMessage(history.error)}</p>
                <button type="button" onClick={newChat} className={cn('font-medium underline', focusRing)}>
                  {t('history.newChat')}
                </button>
              </Alert>
            ) : session.messages.length === 0 ? (
              <div className="flex flex-col items-center pt-[8vh] text-center">
                <LogoMark className="inline-flex h-12 w-12 items-center justify-center rounded-2xl bg-blue-500 text-2xl text-white" />
                <h1 className="mt-4 text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
                  {t('empty.title')}
                </h1>
                <p className="mt-2 max-w-md text-sm text-zinc-500 dark:text-zinc-400">{t('empty.subtitle')}</p>
                <ul className="mt-6 grid w-full max-w-xl gap-2 sm:grid-cols-2">
                  {SUGGESTIONS.map((key) => (
                    <li key={key}>
                      <button
                        type="button"
                        onClick={() => composer.current?.setText(t(`empty.suggestions.${key}.prompt`))}
                        className={cn(
                          'h-full w-full rounded-xl border border-zinc-200 bg-white px-4 py-3 text-left text-sm hover:border-blue-300 hover:bg-blue-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-blue-500/50',
                          focusRing,
                        )}
                      >
                        <span className="block font-medium text-zinc-800 dark:text-zinc-100">
                          {t(`empty.suggestions.${key}.title`)}
                        </span>
                        <span className="block text-zinc-500 dark:text-zinc-400">
                          {t(`empty.suggestions.${key}.prompt`)}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <div
              role="log"
              aria-live="polite"
              aria-relevant="additions"
              aria-busy={session.streaming}
              aria-label={t('conversation')}
              className="space-y-6"
            >
              {!loadingChat &&
                session.messages.map((message, index) => (
                  <MessageItem
                    key={message.key}
                    message={
                      message.modelLabel || !message.model
                        ? message
                        : { ...message, modelLabel: labelOf(message.model) }
                    }
                    isLastQuestion={index === lastQuestion}
                    isLastAnswer={index === lastAnswer}
                    busy={session.streaming}
                    speech={speech}
                    keysPath={keysPath}
                    plansPath={plansPath}
                    onEdit={(key, text) => model && session.edit(key, text, model)}
                    onRegenerate={() => model && session.regenerate(model)}
                    onRetry={() => model && session.retry(model)}
                  />
                ))}
            </div>
          </div>
        </div>

        <div className="bg-gradient-to-t from-zinc-50 via-zinc-50 to-transparent px-3 pb-3 pt-1 sm:px-4 dark:from-zinc-950 dark:via-zinc-950">
          <div className="mx-auto w-full max-w-3xl">
            {noModel && (
              <Alert tone="info" className="mb-2">
                {t('models.noneAvailable')}{' '}
                <Link to={keysPath} className={cn('font-medium underline', focusRing)}>
                  {t('models.addKeyShort')}
                </Link>
              </Alert>
            )}
            <Composer
              ref={composer}
              autoFocus
              streaming={session.streaming}
              disabled={!model}
              pending={modelPending}
              onSend={send}
              onStop={() => {
                session.stop();
                composer.current?.focus();
              }}
            />
          </div>
        </div>

        {dragging && (
          <div className="pointer-events-none absolute inset-2 z-30 flex items-center justify-center rounded-2xl border-2 border-dashed border-blue-400 bg-blue-50/80 text-sm font-medium text-blue-700 dark:bg-blue-500/10 dark:text-blue-200">
            {t('composer.dropHere')}
          </div>
        )}
      </section>
    </div>
  );
}
