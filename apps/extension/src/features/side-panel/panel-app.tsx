import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import type { AttachedFile, PageContent } from '../../messaging/protocol';
import { useSession } from '../../ui/use-session';
import { CaptureBar } from '../capture/capture-bar';
import { ChatPanel } from '../chat/chat-panel';
import { PageChat } from './page-chat';
import { PANEL_PORT, type PanelPortMessage } from './panel-control';
import { PanelHeader } from './panel-header';
import { SignedOut } from './signed-out';

/** The side panel and its full-page twin (/extensionIndex.html). */
export function PanelApp({ mode }: { mode: 'panel' | 'page' }) {
  const { t } = useTranslation();
  const session = useSession();
  const [pageContext, setPageContext] = useState<PageContent | null>(null);
  const [files, setFiles] = useState<AttachedFile[]>([]);

  // A side panel tells the background it is open (for OPEN_CLOSE_POPUP) and closes itself when asked.
  useEffect(() => {
    if (mode !== 'panel') return;
    const port = browser.runtime.connect({ name: PANEL_PORT });
    void browser.windows.getCurrent().then((w) => {
      if (w.id !== undefined) port.postMessage({ type: 'hello', windowId: w.id } satisfies PanelPortMessage);
    });
    port.onMessage.addListener((message: PanelPortMessage) => {
      if (message.type === 'close') window.close();
    });
    return () => port.disconnect();
  }, [mode]);

  useEffect(() => {
    if (!session?.signedIn) {
      setPageContext(null);
      setFiles([]);
    }
  }, [session?.signedIn]);

  if (!session) return <p style={{ padding: 24 }}>{t('session.loading')}</p>;
  if (!session.signedIn) return <SignedOut endReason={session.endReason} />;
  return (
    <div className="panel">
      <PanelHeader profile={session.profile} mode={mode} />
      <main>
        <PageChat value={pageContext} onChange={setPageContext} />
        <CaptureBar
          files={files}
          onAttach={(file) => setFiles((list) => [...list, file].slice(-ATTACHMENT_LIMITS.maxFiles))}
          onPage={setPageContext}
        />
        <ChatPanel
          pageContext={pageContext}
          onPageContextChange={setPageContext}
          files={files}
          onFilesChange={setFiles}
        />
      </main>
    </div>
  );
}
