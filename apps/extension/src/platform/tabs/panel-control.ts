import { browser, type Browser } from 'wxt/browser';
import { extensionSenderContext } from '../messaging/messaging';
import type { PanelState } from '../messaging/protocol';
import type { Handler } from '../messaging/router';
import { classifySender } from '../messaging/senders';

/** The side panel page connects this port and says which window it is in, so the background knows it is open. */
export const PANEL_PORT = 'parley-panel';
export type PanelPortMessage = { type: 'hello'; windowId: number } | { type: 'close' };

export const FULL_PAGE_PATH = '/extensionIndex.html';

/**
 * OPEN_CLOSE_POPUP. Chrome opens a side panel only in answer to a user gesture (sidePanel.open throws otherwise), and
 * that gesture travels with the message only until the handler's first await: so open() is called at once, and when
 * the browser refuses (no gesture, or a browser without side panels) the same screen opens as a full page in a tab.
 * Closing asks the panel page to close itself (window.close()), which needs no gesture.
 */
export function createPanelControl() {
  const panels = new Map<number, Browser.runtime.Port>();

  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== PANEL_PORT) return;
    if (classifySender(port.sender, extensionSenderContext()) !== 'extension') {
      port.disconnect();
      return;
    }
    let windowId: number | null = null;
    port.onMessage.addListener((message: PanelPortMessage) => {
      if (message?.type === 'hello' && typeof message.windowId === 'number') {
        windowId = message.windowId;
        panels.set(windowId, port);
      }
    });
    port.onDisconnect.addListener(() => {
      if (windowId !== null && panels.get(windowId) === port) panels.delete(windowId);
    });
  });

  const openInTab = async () => {
    await browser.tabs.create({ url: browser.runtime.getURL(FULL_PAGE_PATH) });
    return { state: 'opened-in-tab' as const };
  };

  const handler: Handler<'OPEN_CLOSE_POPUP'> = (data, { sender }) => {
    if (data?.page === 'options') {
      return browser.runtime.openOptionsPage().then(() => ({ state: 'opened-in-tab' as const }));
    }
    const action = data?.action ?? 'toggle';
    const windowId = sender.tab?.windowId;
    const tabId = sender.tab?.id;
    const panel = windowId === undefined ? undefined : panels.get(windowId);

    if (action === 'close' || (action === 'toggle' && panel)) {
      panel?.postMessage({ type: 'close' } satisfies PanelPortMessage);
      return { state: 'closed' as const };
    }
    if (panel) return { state: 'open' as const };
    return open({ tabId, windowId });
  };

  /**
   * Opens the panel for that tab (or window), else the full page in a tab. Call it before any await in the handler
   * of a user gesture (a message, a context-menu click).
   */
  const open = ({ tabId, windowId }: { tabId?: number; windowId?: number }): Promise<{ state: PanelState }> => {
    if (windowId !== undefined && panels.has(windowId)) return Promise.resolve({ state: 'open' });
    if (tabId === undefined && windowId === undefined) return openInTab();
    // No await before this call (see above).
    let opening: Promise<void>;
    try {
      opening =
        tabId !== undefined ? browser.sidePanel.open({ tabId }) : browser.sidePanel.open({ windowId: windowId! });
    } catch (error) {
      opening = Promise.reject(error);
    }
    return opening.then(
      () => ({ state: 'open' as const }),
      () => openInTab(),
    );
  };

  return { handler, open, isOpen: (windowId: number) => panels.has(windowId) };
}
