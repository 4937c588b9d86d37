import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { Spinner } from '@parley/ui';
import { onMessages, sendMessage } from '../../platform/messaging/messaging';
import type { AttachedFile, PageContent } from '../../platform/messaging/protocol';
import { CameraIcon, PdfIcon, RegionIcon, VideoIcon } from '../../ui/icons';
import { errorText, muted, toolButton } from '../../ui/styles';
import { captureVideo, capturePdf, captureRegion, captureScreenshot, tabOffer, type TabOffer } from './capture-actions';
import { CaptureFailure, type CaptureProblem } from './tab-access';

type Busy = 'screenshot' | 'region' | 'pdf' | 'video' | null;

/**
 * Screenshot, Select a region, and — when the tab shows one — Chat with this PDF / Chat with this video. Images and
 * PDFs are attached to the next question; a video's transcript becomes the page text (previewed before sending).
 * `leading` goes first in the same row of icon + label buttons.
 */
export function CaptureBar({
  files,
  onAttach,
  onPage,
  leading,
}: {
  files: AttachedFile[];
  onAttach: (file: AttachedFile) => void;
  onPage: (page: PageContent) => void;
  leading?: ReactNode;
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

  const icon = (kind: Exclude<Busy, null>, Idle: typeof CameraIcon) =>
    busy === kind ? <Spinner className="h-3.5 w-3.5 text-blue-500" /> : <Idle className="text-zinc-500" />;

  return (
    <section className="space-y-1.5" aria-label={t('capture.title')}>
      <div className="flex flex-wrap gap-1.5">
        {leading}
        <button
          type="button"
          className={toolButton}
          onClick={() => void run('screenshot')}
          disabled={busy !== null || full}
        >
          {icon('screenshot', CameraIcon)}
          {busy === 'screenshot' ? t('capture.capturing') : t('capture.screenshot')}
        </button>
        <button
          type="button"
          className={toolButton}
          onClick={() => void run('region')}
          disabled={busy !== null || full}
        >
          {icon('region', RegionIcon)}
          {busy === 'region' ? t('capture.selecting') : t('capture.region')}
        </button>
        {offer?.pdf && (
          <button type="button" className={toolButton} onClick={() => void run('pdf')} disabled={busy !== null || full}>
            {icon('pdf', PdfIcon)}
            {busy === 'pdf' ? t('capture.fetchingPdf') : t('capture.pdf')}
          </button>
        )}
        {offer?.videoId && (
          <button type="button" className={toolButton} onClick={() => void run('video')} disabled={busy !== null}>
            {icon('video', VideoIcon)}
            {busy === 'video' ? t('capture.readingVideo') : t('capture.video')}
          </button>
        )}
      </div>
      {busy === 'region' && <p className={`text-xs ${muted}`}>{t('capture.regionHint')}</p>}
      {full && <p className={`text-xs ${muted}`}>{t('capture.tooMany', { count: ATTACHMENT_LIMITS.maxFiles })}</p>}
      {problem && (
        <p role="alert" className={errorText}>
          {t(`capture.problems.${problem}`, {
            image: Math.round(ATTACHMENT_LIMITS.imageMaxBytes / 1024 / 1024),
            pdf: Math.round(ATTACHMENT_LIMITS.pdfMaxBytes / 1024 / 1024),
          })}
        </p>
      )}
    </section>
  );
}
