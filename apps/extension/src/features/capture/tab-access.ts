import { browser } from 'wxt/browser';
import type { Tab } from '../../platform/tabs/tabs';

/** Why a capture did not happen; each has a message in the `capture` strings (except a cancelled region). */
export type CaptureProblem =
  | 'noTab'
  | 'noAccess'
  | 'failed'
  | 'cancelled'
  | 'tooLarge'
  | 'notImage'
  | 'notPdf'
  | 'pdfFailed'
  | 'noTranscript'
  | 'imageFailed';

export class CaptureFailure extends Error {
  constructor(readonly problem: CaptureProblem) {
    super(problem);
    this.name = 'CaptureFailure';
  }
}

/**
 * How the browser words a refusal for want of access. What Parley may do in a web tab comes from activeTab (the person
 * clicked Parley's toolbar button or context menu on that tab) or, when that is not in effect, the optional host
 * permission the person grants on their click; browser pages and the web store stay out of reach either way.
 */
const ACCESS_ERROR = /permission|cannot access|cannot be scripted|activeTab|all_urls|must request/i;

export const ALL_SITES = { origins: ['<all_urls>'] };

/**
 * Runs `work` on the tab; when the browser refuses for want of access, asks the person once for the optional
 * permission (this runs in the click's user activation) and tries again with the tab as it now reads.
 */
export async function withTabAccess<T>(tab: Tab, work: (tab: Tab) => Promise<T>): Promise<T> {
  try {
    if (tab.url === undefined) throw new Error('permission: the address of the tab is not visible');
    return await work(tab);
  } catch (error) {
    if (error instanceof CaptureFailure || !ACCESS_ERROR.test((error as Error)?.message ?? '')) throw error;
  }
  const granted = await browser.permissions.request(ALL_SITES).catch(() => false);
  if (!granted || tab.id === undefined) throw new CaptureFailure('noAccess');
  return work(await browser.tabs.get(tab.id));
}

const paint = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes the tab the visible one of its window, for as long as `work` runs (the full page, /extensionIndex.html, sits
 * in a tab of its own; the side panel is beside the tab already). Our own tab comes back to the front afterwards.
 */
export async function withTabInFront<T>(tab: Tab, work: () => Promise<T>): Promise<T> {
  if (tab.active || tab.id === undefined) return work();
  const self = await browser.tabs.getCurrent().catch(() => undefined);
  await browser.tabs.update(tab.id, { active: true });
  await paint(250);
  try {
    return await work();
  } finally {
    if (self?.id !== undefined) await browser.tabs.update(self.id, { active: true }).catch(() => undefined);
  }
}

/** The visible part of the tab, as PNG (the tab must be the visible one of its window). */
export async function captureVisible(tab: Tab): Promise<Blob> {
  const dataUrl = await browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
  return (await fetch(dataUrl)).blob();
}
