import { browser } from 'wxt/browser';
import { apiCall } from '../../platform/messaging/messaging';
import type { PageContent } from '../../platform/messaging/protocol';
import { targetTab, type Tab } from '../../platform/tabs/tabs';
import { cropImage, imageSize, MIN_REGION, toBitmapRect } from './crop';
import { imageFile, isCaptureError, pdfFile, type CaptureError, type CaptureFile } from './files';
import { isPdfTab, isPdfUrl, pdfName } from './pdf';
import { pickRegionInPage } from './region';
import { captureVisible, CaptureFailure, withTabAccess, withTabInFront } from './tab-access';
import { parseJson3, readTranscriptInPage, transcriptPage, transcriptText, youtubeVideoId } from './youtube';

async function requireTab(): Promise<Tab> {
  const tab = await targetTab();
  if (!tab?.id) throw new CaptureFailure('noTab');
  return tab;
}

const asFile = (result: CaptureFile | CaptureError): CaptureFile => {
  if (isCaptureError(result)) throw new CaptureFailure(result);
  return result;
};

function stamp(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}.${two(d.getMinutes())}.${two(d.getSeconds())}`;
}

const failed = (error: unknown): never => {
  throw error instanceof CaptureFailure ? error : new CaptureFailure('failed');
};

/** "Screenshot": the visible part of the tab, as a PNG. */
export async function captureScreenshot(): Promise<CaptureFile> {
  const tab = await requireTab();
  const png = await withTabAccess(tab, (t) => withTabInFront(t, () => captureVisible(t))).catch(failed);
  return asFile(await imageFile(png, `Screenshot ${stamp()}.png`));
}

/** "Select a region": the person drags a rectangle on the tab; the capture is cropped to it. */
export async function captureRegion(hint: string): Promise<CaptureFile> {
  const tab = await requireTab();
  const png = await withTabAccess(tab, (t) =>
    withTabInFront(t, async () => {
      const [injection] = await browser.scripting.executeScript({
        target: { tabId: t.id!, frameIds: [0] },
        func: pickRegionInPage,
        args: [hint, MIN_REGION],
      });
      const pick = injection?.result;
      if (!pick) throw new CaptureFailure('cancelled');
      const shot = await captureVisible(t);
      const rect = toBitmapRect(pick.rect, await imageSize(shot), pick.viewport, pick.devicePixelRatio);
      if (!rect) throw new CaptureFailure('cancelled');
      return cropImage(shot, rect);
    }),
  ).catch(failed);
  return asFile(await imageFile(png, `Region ${stamp()}.png`));
}

/** What the tab offers besides screenshots: a PDF or a YouTube video (null when its address is not visible). */
export type TabOffer = { tabId: number; pdf: boolean; videoId: string | null };

export async function tabOffer(): Promise<TabOffer | null> {
  const tab = await targetTab();
  if (!tab?.id || !tab.url) return null;
  const videoId = youtubeVideoId(tab.url);
  let pdf = isPdfUrl(tab.url);
  if (!pdf && !videoId && /^https?:/.test(tab.url)) {
    // Chromium's PDF viewer keeps the PDF's address, whatever its path: ask the document for its type.
    const contentType = await browser.scripting
      .executeScript({ target: { tabId: tab.id, frameIds: [0] }, func: () => document.contentType })
      .then(([r]) => r?.result as string | undefined)
      .catch(() => undefined);
    pdf = isPdfTab(tab.url, contentType);
  }
  return { tabId: tab.id, pdf, videoId };
}

/** "Chat with this PDF": the PDF's own bytes, fetched by the extension, attached as a file. */
export async function capturePdf(): Promise<CaptureFile> {
  const tab = await requireTab();
  return withTabAccess(tab, async (t) => {
    const url = t.url!;
    if (!/^https?:/.test(url)) throw new CaptureFailure('notPdf');
    let blob: Blob;
    try {
      const res = await fetch(url, { credentials: 'include' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      blob = await res.blob();
    } catch {
      throw new CaptureFailure('pdfFailed');
    }
    return asFile(await pdfFile(blob, pdfName(url, t.title)));
  });
}

/**
 * "Chat with this video": the transcript read in the watch page itself (its caption track, else the open transcript
 * panel), else from Parley's server; sent as the page text (title, address, transcript), previewed like a page.
 */
export async function captureVideo(language: string): Promise<PageContent> {
  const tab = await requireTab();
  return withTabAccess(tab, async (t) => {
    const url = t.url!;
    const videoId = youtubeVideoId(url);
    if (!videoId) throw new CaptureFailure('noTranscript');
    const [injection] = await browser.scripting.executeScript({
      target: { tabId: t.id!, frameIds: [0] },
      world: 'MAIN',
      func: readTranscriptInPage,
      args: [language],
    });
    const read = injection?.result;
    const title = read?.title || t.title || url;
    const canonical = `https://www.youtube.com/watch?v=${videoId}`;
    let transcript = transcriptText(parseJson3(read?.json3));
    if (!transcript && read?.panelLines.length) transcript = read.panelLines.join('\n');
    if (!transcript) {
      const server = await apiCall('transcript', { query: { url: canonical, lang: language } }).catch(() => null);
      if (server?.data.segments.length)
        transcript = transcriptText(server.data.segments.map((s) => ({ start: s.start, text: s.text })));
      else if (server?.data.text) transcript = server.data.text;
    }
    if (!transcript.trim()) throw new CaptureFailure('noTranscript');
    return transcriptPage({ title, url: canonical, transcript });
  });
}
