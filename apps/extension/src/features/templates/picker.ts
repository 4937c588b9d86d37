import { browser as webext } from 'wxt/browser';
import { sendFrameMessage } from '../../platform/messaging/messaging';
import type { DataOfMessage, PickedTemplate, ResponseOf } from '../../platform/messaging/protocol';
import { MessageError } from '../../platform/messaging/router';
import type { SenderLike } from '../../platform/messaging/senders';
import { isPickerRequest, pickedTemplateOf } from '../../platform/messaging/template-choice';

/** A picker window waiting for a choice: who asked (tab, frame, request) and where the picker is. */
export type PendingPicker = {
  request: string;
  sourceTabId: number;
  frameId: number;
  windowId: number;
  pickerTabId: number;
};

/** Where pending pickers are kept between wake-ups of the worker (storage.session: never seen by content scripts). */
export type PickerStore = { get(): Promise<PendingPicker[]>; set(list: PendingPicker[]): Promise<void> };

type Bounds = { left?: number; top?: number; width?: number; height?: number };

/** The browser's windows and tabs, as far as the picker needs them. */
export type PickerBrowser = {
  createPopup(options: { url: string } & Bounds): Promise<{ windowId: number; tabId: number } | null>;
  /** Brings a window to the front; false when it is gone. */
  focusWindow(windowId: number): Promise<boolean>;
  windowBounds(windowId: number): Promise<Bounds | null>;
  /** The window a tab is in, or null when the tab is gone. */
  windowOfTab(tabId: number): Promise<number | null>;
  closeWindow(windowId: number): Promise<void>;
  /** TEMPLATE_PICKED to one frame of one tab; whether the box took the template. */
  deliver(tabId: number, frameId: number, data: DataOfMessage<'TEMPLATE_PICKED'>): Promise<boolean>;
};

/** The picker's window: small, beside the right edge of the window the person is writing in. */
export const PICKER_SIZE = { width: 440, height: 640 } as const;
/** The web app's picker page; `from=extension` only changes what its buttons say (the extension trusts nothing in it). */
export const PICKER_PATH = '/template-app?from=extension';

/**
 * The web app's template picker (spec §2, /template-app/*), opened from the templates on a site: the background opens
 * it in a popup window (the web app may not be framed: its `frame-ancestors 'none'`), remembers which tab, frame and
 * request asked, and hands the template chosen there back to that frame only.
 *
 * A choice counts only when it comes from the web app's bridge (the sender rules of the protocol: the top frame of the
 * configured web app origin exactly) in the tab of a picker this background opened and is still waiting on; it is
 * taken once (the picker is then forgotten and its window closed), and its shape is checked again here. One picker per
 * tab: asking again from the same tab brings its window to the front for the new box.
 */
export function createTemplatePicker(deps: { store: PickerStore; browser: PickerBrowser; webOrigin: string }) {
  const { store, browser } = deps;
  // One change of the pending list at a time: events and messages may arrive together.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  async function place(sourceWindowId: number | undefined): Promise<Bounds> {
    const around = sourceWindowId === undefined ? null : await browser.windowBounds(sourceWindowId).catch(() => null);
    if (around?.left === undefined || around.top === undefined || around.width === undefined) return {};
    return {
      left: Math.max(0, around.left + around.width - PICKER_SIZE.width - 24),
      top: Math.max(0, around.top + 72),
    };
  }

  function open(
    data: DataOfMessage<'OPEN_TEMPLATE_PICKER'>,
    sender: SenderLike,
  ): Promise<ResponseOf<'OPEN_TEMPLATE_PICKER'>> {
    const tabId = sender.tab?.id;
    if (typeof tabId !== 'number' || !isPickerRequest(data?.request)) {
      return Promise.reject(new MessageError('BAD_REQUEST', 'A picker is opened for a box of a tab'));
    }
    const ask = { request: data.request, sourceTabId: tabId, frameId: sender.frameId ?? 0 };
    return serially(async () => {
      const list = await store.get();
      const existing = list.find((p) => p.sourceTabId === tabId);
      if (existing && (await browser.focusWindow(existing.windowId).catch(() => false))) {
        await store.set(list.map((p) => (p === existing ? { ...p, ...ask } : p)));
        return { opened: true };
      }
      const popup = await browser.createPopup({
        url: `${deps.webOrigin}${PICKER_PATH}`,
        ...PICKER_SIZE,
        ...(await place(sender.tab?.windowId)),
      });
      if (!popup) return { opened: false };
      const entry: PendingPicker = { ...ask, windowId: popup.windowId, pickerTabId: popup.tabId };
      await store.set([...list.filter((p) => p.sourceTabId !== tabId), entry]);
      return { opened: true };
    });
  }

  function choose(data: DataOfMessage<'TEMPLATE_CHOSEN'>, sender: SenderLike): Promise<ResponseOf<'TEMPLATE_CHOSEN'>> {
    const template: PickedTemplate | null = pickedTemplateOf(data?.template);
    if (!template) return Promise.reject(new MessageError('BAD_REQUEST', 'Not a template'));
    const tabId = sender.tab?.id;
    return serially(async () => {
      const list = await store.get();
      const pending = list.find((p) => typeof tabId === 'number' && p.pickerTabId === tabId);
      if (!pending) return { delivered: false };
      // Taken once, whatever happens next.
      await store.set(list.filter((p) => p !== pending));
      const { request, sourceTabId, frameId, windowId } = pending;
      const delivered = await browser.deliver(sourceTabId, frameId, { request, template }).catch(() => false);
      if (delivered) {
        await browser.closeWindow(windowId).catch(() => undefined);
        // Back to the box, so the person can go on typing.
        const sourceWindow = await browser.windowOfTab(sourceTabId).catch(() => null);
        if (sourceWindow !== null) await browser.focusWindow(sourceWindow).catch(() => false);
      }
      return { delivered };
    });
  }

  /** A closed picker window, or a closed tab that asked for one: nothing waits for it any more. */
  function forget(closed: { windowId?: number; tabId?: number }): Promise<void> {
    return serially(async () => {
      const list = await store.get();
      const gone = list.filter((p) => p.windowId === closed.windowId || p.sourceTabId === closed.tabId);
      if (!gone.length) return;
      await store.set(list.filter((p) => !gone.includes(p)));
      // The box the picker was for is gone with its tab: so is the picker.
      for (const p of gone) if (p.sourceTabId === closed.tabId) await browser.closeWindow(p.windowId).catch(() => {});
    });
  }

  return { open, choose, forget };
}

export type TemplatePicker = ReturnType<typeof createTemplatePicker>;

const PENDING_KEY = 'templatePickers';

const pendingOf = (value: unknown): PendingPicker[] => (Array.isArray(value) ? (value as PendingPicker[]) : []);

/** The picker on the browser's own windows, tabs and session storage. */
export function createBrowserTemplatePicker(webOrigin: string): TemplatePicker {
  return createTemplatePicker({
    webOrigin,
    store: {
      get: async () => pendingOf((await webext.storage.session.get(PENDING_KEY))[PENDING_KEY]),
      set: (list) => webext.storage.session.set({ [PENDING_KEY]: list }),
    },
    browser: {
      async createPopup({ left, top, ...options }) {
        const create = (bounds: Bounds) =>
          webext.windows.create({ ...options, ...bounds, type: 'popup', focused: true });
        // The browser refuses a place more than half off the screen (a window wider than its screen, several screens):
        // then wherever it likes.
        const at = left === undefined || top === undefined ? {} : { left, top };
        const created = await create(at).catch(() => create({}));
        const tabId = created?.tabs?.[0]?.id;
        return typeof created?.id === 'number' && typeof tabId === 'number' ? { windowId: created.id, tabId } : null;
      },
      async focusWindow(windowId) {
        await webext.windows.update(windowId, { focused: true });
        return true;
      },
      async windowBounds(windowId) {
        const { left, top, width, height } = await webext.windows.get(windowId);
        return { left, top, width, height };
      },
      async windowOfTab(tabId) {
        return (await webext.tabs.get(tabId)).windowId ?? null;
      },
      async closeWindow(windowId) {
        await webext.windows.remove(windowId);
      },
      async deliver(tabId, frameId, data) {
        return (await sendFrameMessage(tabId, frameId, 'TEMPLATE_PICKED', data)).used;
      },
    },
  });
}
