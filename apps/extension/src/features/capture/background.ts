import { browser, type Browser } from 'wxt/browser';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';
import { sendMessage } from '../../platform/messaging/messaging';
import type { PanelState, PendingCapture, ProtocolMap } from '../../platform/messaging/protocol';
import { MessageError, type Handler } from '../../platform/messaging/router';
import { readStoredSettings, watchStoredSettings } from '../../platform/storage/settings-store';
import { cropImage, imageSize, toBitmapRect } from './crop';
import { imageFile, isCaptureError } from './files';
import { findImageInPage } from './region';

export const IMAGE_MENU_ID = 'parley-chat-about-image';

/** Longest image address accepted from a page (data: URLs included: an image within the API's limit, in base64). */
const MAX_SRC_LENGTH = 16 * 1024 * 1024;
/** Images waiting for a panel to take them; older ones are dropped. */
const MAX_PENDING = 5;

const MENU_TITLES: Record<string, string> = {
  en: en.capture.menu,
  es: es.capture.menu,
  fr: fr.capture.menu,
};

type Tab = Browser.tabs.Tab;
type Open = (target: { tabId?: number; windowId?: number }) => Promise<{ state: PanelState }>;

function imageName(srcUrl: string): string {
  if (srcUrl.startsWith('data:')) return 'image';
  try {
    const last = decodeURIComponent(new URL(srcUrl).pathname.split('/').pop() ?? '');
    return (
      last
        .replace(/[\\/:*?"<>|\s]+/g, ' ')
        .trim()
        .slice(0, 120) || 'image'
    );
  } catch {
    return 'image';
  }
}

/** The image's own bytes, fetched by the extension (data: URLs too); null when the site refuses or it is no image. */
async function fetchImage(srcUrl: string): Promise<PendingCapture | null> {
  if (!/^(https?|data):/i.test(srcUrl)) return null;
  try {
    const res = await fetch(srcUrl, { credentials: 'include' });
    if (!res.ok) return null;
    const file = await imageFile(await res.blob(), imageName(srcUrl));
    return isCaptureError(file) ? null : { file };
  } catch {
    return null;
  }
}

/**
 * Runs `work` with the tab as the visible one of its window: when the panel could not open beside it (no side panel,
 * or no user gesture), the full page opened in a tab of its own and hides it. The tab that was in front comes back.
 */
async function inFront<T>(tabId: number, work: () => Promise<T>): Promise<T> {
  const tab = await browser.tabs.get(tabId);
  if (tab.active) return work();
  const [front] = await browser.tabs.query({ active: true, windowId: tab.windowId });
  await browser.tabs.update(tabId, { active: true });
  await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    return await work();
  } finally {
    if (front?.id !== undefined) await browser.tabs.update(front.id, { active: true }).catch(() => undefined);
  }
}

/** The image as it is drawn on screen: the visible tab captured and cropped to the image's box. */
async function captureImage(srcUrl: string, tab: Tab, frameId: number): Promise<PendingCapture> {
  // A frame's boxes are relative to that frame, not to the tab's viewport: only top-frame images are cropped.
  if (tab.id === undefined || frameId !== 0) return { error: 'imageFailed' };
  try {
    const [injection] = await browser.scripting.executeScript({
      target: { tabId: tab.id, frameIds: [0] },
      func: findImageInPage,
      args: [srcUrl],
    });
    const pick = injection?.result;
    if (!pick) return { error: 'imageFailed' };
    const shot = await inFront(tab.id, async () =>
      (await fetch(await browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' }))).blob(),
    );
    const rect = toBitmapRect(pick.rect, await imageSize(shot), pick.viewport, pick.devicePixelRatio);
    if (!rect) return { error: 'imageFailed' };
    const png = `${imageName(srcUrl).replace(/\.[a-z0-9]{2,5}$/i, '')}.png`;
    const file = await imageFile(await cropImage(shot, rect), png);
    return isCaptureError(file) ? { error: file } : { file };
  } catch {
    return { error: 'imageFailed' };
  }
}

/**
 * "Chat about this image with Parley": a context menu on images, present only while the `chatWithImage` setting is
 * '1'. A click opens the panel (the click is the user gesture sidePanel.open needs, so it is called first), then gets
 * the image — its bytes fetched by the extension, or, when the site refuses them, the visible tab cropped to the
 * image — and leaves it for the panel, which takes it with TAKE_CAPTURES (told by CAPTURES_READY).
 */
export function createImageCapture({ open }: { open: Open }) {
  const pending: PendingCapture[] = [];
  /** null until the stored settings are read (a menu click can be what wakes the worker up). */
  let enabled: boolean | null = null;
  let language = 'en';
  let menuChain: Promise<unknown> = Promise.resolve();

  const syncMenu = () => {
    menuChain = menuChain
      .then(() => browser.contextMenus.remove(IMAGE_MENU_ID).catch(() => undefined))
      .then(() => {
        if (!enabled) return;
        browser.contextMenus.create({
          id: IMAGE_MENU_ID,
          title: MENU_TITLES[language] ?? MENU_TITLES.en!,
          contexts: ['image'],
        });
      })
      .catch(() => undefined);
    return menuChain;
  };

  const setEnabled = (flag: string | undefined) => {
    const next = flag === '1';
    if (next === enabled) return;
    enabled = next;
    void syncMenu();
  };
  const ready = readStoredSettings().then((settings) => {
    enabled = settings?.chatWithImage === '1';
    return syncMenu();
  });
  watchStoredSettings((settings) => setEnabled(settings.chatWithImage));

  const deliver = (item: PendingCapture) => {
    pending.push(item);
    pending.splice(0, Math.max(0, pending.length - MAX_PENDING));
    sendMessage('CAPTURES_READY').catch(() => undefined);
  };

  /**
   * The menu's work; returns how the panel opened. Nothing may be awaited before `open` (the user gesture): when the
   * worker has just woken up, the setting is checked right after, before any image is read.
   */
  const chatAboutImage = (srcUrl: string, tab: Tab, frameId = 0): Promise<{ state: PanelState }> => {
    if (enabled === false) return Promise.reject(new MessageError('FEATURE_OFF', 'Chat with image is off', 403));
    const opening = open({ tabId: tab.id, windowId: tab.windowId });
    void (async () => {
      await ready;
      if (!enabled) return;
      // Once the panel (or the full page) is in place, so the tab is not covered while its image is captured.
      await opening.catch(() => undefined);
      deliver((await fetchImage(srcUrl)) ?? (await captureImage(srcUrl, tab, frameId)));
    })();
    return opening;
  };

  const onMenuClick = (info: Browser.contextMenus.OnClickData, tab?: Tab) => {
    if (info.menuItemId !== IMAGE_MENU_ID || !tab || !info.srcUrl) return;
    chatAboutImage(info.srcUrl, tab, info.frameId ?? 0).catch(() => undefined);
  };

  const handlers: {
    CHAT_ABOUT_IMAGE: Handler<'CHAT_ABOUT_IMAGE'>;
    TAKE_CAPTURES: Handler<'TAKE_CAPTURES'>;
  } = {
    CHAT_ABOUT_IMAGE: async (data: ProtocolMap['CHAT_ABOUT_IMAGE']['data']) => {
      if (
        !data ||
        typeof data.srcUrl !== 'string' ||
        data.srcUrl.length > MAX_SRC_LENGTH ||
        typeof data.tabId !== 'number' ||
        (data.frameId !== undefined && typeof data.frameId !== 'number')
      ) {
        throw new MessageError('BAD_REQUEST', 'srcUrl and tabId are required');
      }
      await ready;
      if (!enabled) throw new MessageError('FEATURE_OFF', 'Chat with image is off', 403);
      return chatAboutImage(data.srcUrl, await browser.tabs.get(data.tabId), data.frameId ?? 0);
    },
    TAKE_CAPTURES: () => pending.splice(0),
  };

  return {
    handlers,
    onMenuClick,
    setLanguage(next: string) {
      if (next === language) return;
      language = next;
      if (enabled) void syncMenu();
    },
  };
}
