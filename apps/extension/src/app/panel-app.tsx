import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { CaptureBar } from '../features/capture/capture-bar';
import { ChatPanel } from '../features/chat/chat-panel';
import { PageChatButton, PagePreview, usePageReader } from '../features/side-panel/page-chat';
import { PanelHeader } from '../features/side-panel/panel-header';
import { SignedOut } from '../features/side-panel/signed-out';
import type { AttachedFile, PageContent } from '../platform/messaging/protocol';
import { PANEL_PORT, type PanelPortMessage } from '../platform/tabs/panel-control';
import { muted } from '../ui/styles';
import { useSession } from '../ui/use-session';

/** The side panel and its full-page twin (/extensionIndex.html). */
export function PanelApp({ mode }: { mode: 'panel' | 'page' }) {
  const { t } = useTranslation();
  const session = useSession();
  const [pageContext, setPageContext] = useState<PageContent | null>(null);
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const reader = usePageReader(setPageContext);

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

  if (!session) return <p className={`p-6 text-sm ${muted}`}>{t('session.loading')}</p>;
  if (!session.signedIn) return <SignedOut endReason={session.endReason} endMessage={session.endMessage} />;
  return (
    <div className="flex h-screen flex-col bg-white dark:bg-zinc-950">
      <PanelHeader profile={session.profile} mode={mode} />
      <main className="flex min-h-0 flex-1 flex-col">
        <ChatPanel
          pageContext={pageContext}
          onPageContextChange={setPageContext}
          files={files}
          onFilesChange={setFiles}
          mode={mode}
          tools={
            <>
              <CaptureBar
                files={files}
                onAttach={(file) => setFiles((list) => [...list, file].slice(-ATTACHMENT_LIMITS.maxFiles))}
                onPage={setPageContext}
                leading={<PageChatButton reader={reader} />}
              />
              <PagePreview reader={reader} value={pageContext} onChange={setPageContext} />
            </>
          }
        />
      </main>
    </div>
  );
}
