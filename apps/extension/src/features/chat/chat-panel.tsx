import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelAvailability, ModelId } from '@parley/contract';
import { BasicComposer, MessageList, ModelPicker } from '@parley/ui/chat';
import { webUrl } from '../../config';
import { apiCall, sendMessage } from '../../messaging/messaging';
import type { AttachedFile, PageContent } from '../../messaging/protocol';
import { AttachmentChips } from '../capture/attachment-chips';
import { addChatStrings } from './chat-i18n';
import { useExtensionChat } from './use-extension-chat';
import './chat.css';

type Props = {
  /** The page previewed by "Chat with this page": it goes with the next question, then is dropped. */
  pageContext: PageContent | null;
  onPageContextChange: (page: PageContent | null) => void;
  /** Screenshots, regions, page images and PDFs: they go with the next question, then are dropped. */
  files: AttachedFile[];
  onFilesChange: (files: AttachedFile[]) => void;
};

/** The chat of the side panel and of /extensionIndex.html: the web app's pieces, streamed through the background. */
export function ChatPanel(props: Props) {
  const { i18n } = useTranslation();
  useMemo(() => addChatStrings(i18n), [i18n]);
  return <ChatPanelInner {...props} />;
}

function ChatPanelInner({ pageContext, onPageContextChange, files, onFilesChange }: Props) {
  const { t } = useTranslation('chat');
  const [models, setModels] = useState<ModelAvailability[] | null>(null);
  const [modelsFailed, setModelsFailed] = useState(false);
  const [preferred, setPreferred] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ModelId | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    apiCall('models')
      .then((r) => setModels(r.data))
      .catch(() => setModelsFailed(true));
    sendMessage('GET_SETTINGS')
      .then((s) => setPreferred(s.model))
      .catch(() => undefined);
  }, []);

  const labelOf = useCallback((id: string) => models?.find((m) => m.id === id)?.label ?? null, [models]);
  const chat = useExtensionChat(labelOf);

  // The model: the one picked here, else the setting when usable, else the first usable one.
  const available = (models ?? []).filter((m) => m.available);
  const model: ModelId | null =
    (chosen && available.some((m) => m.id === chosen) ? chosen : null) ??
    available.find((m) => m.id === preferred)?.id ??
    available[0]?.id ??
    null;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [chat.messages]);

  const send = (text: string) => {
    if (!model) return;
    chat.send(text, model, pageContext, files);
    if (pageContext) onPageContextChange(null);
    if (files.length > 0) onFilesChange([]);
  };

  return (
    <section className="chat-panel" aria-label={t('title')}>
      <div className="chat-toolbar">
        {models ? (
          <ModelPicker
            models={models}
            value={model}
            onChange={setChosen}
            addKeyLink={(className, label) => (
              <a className={className} href={webUrl('/setting/other')} target="_blank" rel="noreferrer">
                {label}
              </a>
            )}
          />
        ) : modelsFailed ? (
          <span role="alert" className="error">
            {t('models.noneAvailable')}
          </span>
        ) : null}
        <button type="button" onClick={chat.reset} disabled={chat.messages.length === 0}>
          {t('history.newChat')}
        </button>
      </div>
      <div ref={scroller} className="chat-scroll">
        {chat.messages.length === 0 ? (
          <p className="muted">{t('empty.title')}</p>
        ) : (
          <MessageList messages={chat.messages} busy={chat.streaming} />
        )}
      </div>
      <BasicComposer
        streaming={chat.streaming}
        disabled={!model}
        onSend={send}
        onStop={chat.stop}
        chips={
          (pageContext || files.length > 0) && (
            <ul className="chat-chips" aria-label={t('composer.attachments')}>
              {pageContext && (
                <li className="chat-chip" data-testid="page-chip">
                  <span>{pageContext.title || pageContext.url}</span>
                  <button
                    type="button"
                    aria-label={t('composer.removeAttachment', { name: pageContext.title || pageContext.url })}
                    onClick={() => onPageContextChange(null)}
                  >
                    ×
                  </button>
                </li>
              )}
              <AttachmentChips
                files={files}
                removeLabel={(name) => t('composer.removeAttachment', { name })}
                onRemove={(id) => onFilesChange(files.filter((f) => f.id !== id))}
              />
            </ul>
          )
        }
      />
    </section>
  );
}
