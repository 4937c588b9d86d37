import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelAvailability, ModelId } from '@parley/contract';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { LogoMark } from '@parley/ui';
import { HistoryIcon, PlusIcon } from '@parley/ui/action-icons';
import {
  ChatServicesProvider,
  Composer,
  fileKind,
  MessageList,
  ModelPicker,
  modelName,
  type ComposerSubmit,
} from '@parley/ui/chat';
import { webUrl } from '../../config';
import { blobToDataUrl } from '../../platform/messaging/data-url';
import { apiCall, sendMessage } from '../../platform/messaging/messaging';
import type { AttachedFile, PageContent } from '../../platform/messaging/protocol';
import { AttachmentChips } from '../../ui/attachment-chips';
import { CloseIcon, PageIcon } from '../../ui/icons';
import { chip, errorText, muted, removeButton } from '../../ui/styles';
import { addChatStrings } from './chat-i18n';
import { useExtensionChatServices } from './extension-chat-services';
import { HistoryList } from './history-list';
import { useExtensionChat } from './use-extension-chat';

type Props = {
  /** The page previewed by "Chat with this page": it goes with the next question, then is dropped. */
  pageContext: PageContent | null;
  onPageContextChange: (page: PageContent | null) => void;
  /** Screenshots, regions, page images and PDFs: they go with the next question, then are dropped. */
  files: AttachedFile[];
  onFilesChange: (files: AttachedFile[]) => void;
  /** Shown over the composer (the action row, the page preview). */
  tools?: ReactNode;
  /** The side panel, or the full page (/extensionIndex.html), which centres a column. */
  mode: 'panel' | 'page';
};

/** A file picked in the composer, as it travels to the background (JSON only: its bytes as a data: URL). */
async function portFile(file: File) {
  const kind = fileKind(file) ?? 'image';
  return {
    name: file.name,
    mediaType: file.type || (kind === 'pdf' ? 'application/pdf' : 'image/png'),
    dataUrl: await blobToDataUrl(file),
  };
}

/**
 * The chat of the side panel and of /extensionIndex.html: the web app's composer and messages (files, Ask For Web,
 * a page or video, voice, read aloud, translate), streamed and called through the background.
 */
export function ChatPanel(props: Props) {
  const { i18n } = useTranslation();
  useMemo(() => addChatStrings(i18n), [i18n]);
  const services = useExtensionChatServices(props.mode);
  return (
    <ChatServicesProvider value={services}>
      <ChatPanelInner {...props} />
    </ChatServicesProvider>
  );
}

/** How long a message sent before the settings have been read waits for them. */
const SETTINGS_WAIT_MS = 1500;

function ChatPanelInner({ pageContext, onPageContextChange, files, onFilesChange, tools, mode }: Props) {
  // The side panel is narrow (360–420 px) and uses its whole width; the full page centres a column.
  const column = mode === 'page' ? 'mx-auto w-full max-w-3xl px-4' : 'px-3';
  const { t } = useTranslation('chat');
  const [models, setModels] = useState<ModelAvailability[] | null>(null);
  const [modelsFailed, setModelsFailed] = useState(false);
  const [preferred, setPreferred] = useState<string | null>(null);
  const [settingsRead, setSettingsRead] = useState(false);
  const [chosen, setChosen] = useState<ModelId | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [showHistory, setShowHistory] = useState(false);
  const [openFailed, setOpenFailed] = useState(false);

  useEffect(() => {
    apiCall('models')
      .then((r) => setModels(r.data))
      .catch(() => setModelsFailed(true));
    sendMessage('GET_SETTINGS')
      .then((s) => setPreferred(s.model))
      .catch(() => undefined)
      .finally(() => setSettingsRead(true));
    // The settings may wait behind a sync with the server: a message sent meanwhile waits at most this long for them
    // (then the first usable model answers, as when the setting names none).
    const enough = setTimeout(() => setSettingsRead(true), SETTINGS_WAIT_MS);
    return () => clearTimeout(enough);
  }, []);

  const labelOf = useCallback(
    (id: string) => {
      const model = models?.find((m) => m.id === id);
      return model ? modelName(t, model) : null;
    },
    [models, t],
  );
  const chat = useExtensionChat(labelOf);

  // The model: the one picked here, else the setting when usable, else the first usable one.
  const available = (models ?? []).filter((m) => m.available);
  const model: ModelId | null =
    (chosen && available.some((m) => m.id === chosen) ? chosen : null) ??
    available.find((m) => m.id === preferred)?.id ??
    available[0]?.id ??
    null;
  // Until the models and the setting are known, a message sent waits for them (the box has the focus at once).
  const modelPending = (models === null && !modelsFailed) || !settingsRead;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [chat.messages]);

  const openChat = (chatHistoryId: string) => {
    setOpenFailed(false);
    apiCall('chatHistory', { query: { chatHistoryId } })
      .then((r) => {
        chat.open(r.data);
        setShowHistory(false);
      })
      .catch(() => setOpenFailed(true));
  };

  const send = async ({ text, files: picked, url, webSearch }: ComposerSubmit) => {
    if (!model) return;
    const page = pageContext;
    const attached = files;
    if (page) onPageContextChange(null);
    if (attached.length > 0) onFilesChange([]);
    const added = await Promise.all(picked.map(portFile));
    // The composer counted the captures when files were picked; a capture added since then cannot go over the limit.
    const all = [...attached, ...added].slice(0, ATTACHMENT_LIMITS.maxFiles);
    chat.send({ text, model, page, files: all, webSearch, ...(url ? { url } : {}) });
  };

  return (
    <section className="flex min-h-0 flex-1 flex-col" aria-label={t('title')}>
      <div className={`${column} flex items-center justify-between gap-2 py-2`}>
        {models ? (
          <ModelPicker
            models={models}
            value={model}
            onChange={setChosen}
            preferred={preferred}
            addKeyLink={(className, label) => (
              <a className={className} href={webUrl('/setting/api-keys')} target="_blank" rel="noreferrer">
                {label}
              </a>
            )}
          />
        ) : modelsFailed ? (
          <span role="alert" className={errorText}>
            {t('models.noneAvailable')}
          </span>
        ) : (
          <span />
        )}
        <div className="flex shrink-0 items-center gap-1">
          <button
            type="button"
            onClick={() => setShowHistory((shown) => !shown)}
            aria-expanded={showHistory}
            aria-label={showHistory ? t('history.close') : t('history.open')}
            title={showHistory ? t('history.close') : t('history.open')}
            className="inline-flex h-8 w-8 items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 aria-expanded:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-expanded:bg-zinc-800"
          >
            <HistoryIcon width="1.1em" height="1.1em" />
          </button>
          <button
            type="button"
            onClick={() => {
              chat.reset();
              setShowHistory(false);
            }}
            disabled={chat.messages.length === 0}
            // The side panel is too narrow for "Nouvelle conversation" beside the model: the icon, named.
            aria-label={t('history.newChat')}
            title={t('history.newChat')}
            className={`inline-flex h-8 shrink-0 items-center gap-1 rounded-lg text-sm font-medium text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-800 ${mode === 'panel' ? 'w-8 justify-center' : 'px-2.5'}`}
          >
            <PlusIcon width={mode === 'panel' ? '1.1em' : '1em'} height={mode === 'panel' ? '1.1em' : '1em'} />
            {mode === 'page' && t('history.newChat')}
          </button>
        </div>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto">
        <div className={`${column} py-3`}>
          {showHistory ? (
            <>
              {openFailed && (
                <p role="alert" className={`${errorText} mb-2`}>
                  {t('history.loadFailed')}
                </p>
              )}
              <HistoryList currentId={chat.chatId()} onOpen={openChat} />
            </>
          ) : chat.messages.length === 0 ? (
            <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
              <LogoMark className="inline-flex h-10 w-10 items-center justify-center rounded-xl bg-blue-50 text-xl text-blue-500 dark:bg-blue-500/10" />
              <p className={`text-sm ${muted}`}>{t('empty.title')}</p>
            </div>
          ) : (
            <MessageList
              messages={chat.messages}
              busy={chat.streaming}
              onRegenerate={model && chat.chatId() ? () => chat.regenerate(model) : undefined}
            />
          )}
        </div>
      </div>
      <div className={`${column} space-y-2 pb-3 pt-2`}>
        {tools}
        <Composer
          autoFocus
          hint={mode === 'page'}
          streaming={chat.streaming}
          disabled={!model}
          pending={modelPending}
          onSend={(input) => void send(input)}
          onStop={chat.stop}
          attachedCount={files.length}
          chips={
            pageContext || files.length > 0 ? (
              <>
                {pageContext && (
                  <li className={`${chip} max-w-56`} data-testid="page-chip">
                    <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-blue-50 text-blue-600 dark:bg-blue-500/10 dark:text-blue-300">
                      <PageIcon />
                    </span>
                    <span className="min-w-0 flex-1 truncate font-medium text-zinc-800 dark:text-zinc-100">
                      {pageContext.title || pageContext.url}
                    </span>
                    <button
                      type="button"
                      className={removeButton}
                      aria-label={t('composer.removeAttachment', { name: pageContext.title || pageContext.url })}
                      onClick={() => onPageContextChange(null)}
                    >
                      <CloseIcon width="0.9em" height="0.9em" />
                    </button>
                  </li>
                )}
                <AttachmentChips
                  files={files}
                  removeLabel={(name) => t('composer.removeAttachment', { name })}
                  onRemove={(id) => onFilesChange(files.filter((f) => f.id !== id))}
                />
              </>
            ) : null
          }
        />
      </div>
    </section>
  );
}
