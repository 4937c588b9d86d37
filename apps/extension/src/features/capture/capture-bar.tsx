import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { onMessages, sendMessage } from '../../messaging/messaging';
import type { AttachedFile, PageContent } from '../../messaging/protocol';
import { captureVideo, capturePdf, captureRegion, captureScreenshot, tabOffer, type TabOffer } from './capture-actions';
import { CaptureFailure, type CaptureProblem } from './tab-access';
import './capture.css';

type Busy = 'screenshot' | 'region' | 'pdf' | 'video' | null;

/**
 * Screenshot, Select a region, and — when the tab shows one — Chat with this PDF / Chat with this video. Images and
 * PDFs are attached to the next question; a video's transcript becomes the page text (previewed before sending).
 */
export function CaptureBar({
  files,
  onAttach,
  onPage,
}: {
  files: AttachedFile[];
  onAttach: (file: AttachedFile) => void;
  onPage: (page: PageContent) => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<CaptureProblem | null>(null);
  const [offer, setOffer] = useState<TabOffer | null>(null);
  const attach = useRef(onAttach);
  useEffect(() => {
    attach.current = onAttach;
  });

  // Images left by the "Chat about this image" context menu: taken when the page opens and whenever one arrives.
  useEffect(() => {
    const take = () =>
      sendMessage('TAKE_CAPTURES').then(
        (pending) => {
          for (const item of pending) {
            if ('file' in item) attach.current(item.file);
            else setProblem(item.error);
          }
        },
        () => undefined,
      );
    void take();
    return onMessages({
      CAPTURES_READY: () => {
        void take();
        return { taken: true };
      },
    });
  }, []);

  const refresh = useCallback(() => {
    tabOffer().then(setOffer, () => setOffer(null));
  }, []);
  useEffect(() => {
    refresh();
    const onActivated = () => refresh();
    const onUpdated = (_id: number, change: { url?: string; status?: string }) => {
      if (change.url || change.status === 'complete') refresh();
    };
    browser.tabs.onActivated.addListener(onActivated);
    browser.tabs.onUpdated.addListener(onUpdated);
    window.addEventListener('focus', onActivated);
    return () => {
      browser.tabs.onActivated.removeListener(onActivated);
      browser.tabs.onUpdated.removeListener(onUpdated);
      window.removeEventListener('focus', onActivated);
    };
  }, [refresh]);

  const full = files.length >= ATTACHMENT_LIMITS.maxFiles;

  async function run(kind: Exclude<Busy, null>) {
    setBusy(kind);
    setProblem(null);
    try {
      if (kind === 'video') onPage(await captureVideo(i18n.language));
      else
        onAttach(
          await (kind === 'screenshot'
            ? captureScreenshot()
            : kind === 'region'
              ? captureRegion(t('capture.regionHint'))
              : capturePdf()),
        );
      refresh();
    } catch (error) {
      const reason = error instanceof CaptureFailure ? error.problem : 'failed';
      if (reason !== 'cancelled') setProblem(reason);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="stack" style={{ gap: 6 }} aria-label={t('capture.title')}>
      <div className="capture-bar">
        <button onClick={() => void run('screenshot')} disabled={busy !== null || full}>
          {busy === 'screenshot' ? t('capture.capturing') : t('capture.screenshot')}
        </button>
        <button onClick={() => void run('region')} disabled={busy !== null || full}>
          {busy === 'region' ? t('capture.selecting') : t('capture.region')}
        </button>
        {offer?.pdf && (
          <button onClick={() => void run('pdf')} disabled={busy !== null || full}>
            {busy === 'pdf' ? t('capture.fetchingPdf') : t('capture.pdf')}
          </button>
        )}
        {offer?.videoId && (
          <button onClick={() => void run('video')} disabled={busy !== null}>
            {busy === 'video' ? t('capture.readingVideo') : t('capture.video')}
          </button>
        )}
      </div>
      {busy === 'region' && <span className="muted">{t('capture.regionHint')}</span>}
      {full && <span className="muted">{t('capture.tooMany', { count: ATTACHMENT_LIMITS.maxFiles })}</span>}
      {problem && (
        <p role="alert" className="error" style={{ margin: 0 }}>
          {t(`capture.problems.${problem}`, {
            image: Math.round(ATTACHMENT_LIMITS.imageMaxBytes / 1024 / 1024),
            pdf: Math.round(ATTACHMENT_LIMITS.pdfMaxBytes / 1024 / 1024),
          })}
        </p>
      )}
    </section>
  );
}
