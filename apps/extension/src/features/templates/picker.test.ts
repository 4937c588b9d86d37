import { describe, expect, it, vi } from 'vitest';
import type { SenderLike } from '../../platform/messaging/senders';
import { createTemplatePicker, PICKER_PATH, type PendingPicker, type PickerBrowser } from './picker';

const WEB = 'http://localhost:3000';
const REQUEST = '0f0e0d0c-0b0a-4908-8706-050403020100';
const OTHER_REQUEST = '1f0e0d0c-0b0a-4908-8706-050403020101';
const template = {
  id: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01',
  kind: 'mail' as const,
  title: 'Thanks',
  body: 'Hi {{first_name}}, thanks!',
  language: null,
};

/** Gmail's tab 7 (window 1), a frame of it, and the picker's own tab 50 (window 9) once opened. */
const gmail: SenderLike = { tab: { id: 7, windowId: 1 }, frameId: 0 };
const pickerTab: SenderLike = { tab: { id: 50, windowId: 9 }, frameId: 0 };

function setup() {
  let pending: PendingPicker[] = [];
  const windows = new Set<number>([1]);
  let nextWindow = 9;
  const browser = {
    createPopup: vi.fn<PickerBrowser['createPopup']>(async () => {
      const windowId = nextWindow++;
      windows.add(windowId);
      return { windowId, tabId: 41 + windowId };
    }),
    focusWindow: vi.fn<PickerBrowser['focusWindow']>(async (id) => {
      if (!windows.has(id)) throw new Error('No window with id');
      return true;
    }),
    windowBounds: vi.fn<PickerBrowser['windowBounds']>(async () => ({ left: 100, top: 50, width: 1200, height: 800 })),
    windowOfTab: vi.fn<PickerBrowser['windowOfTab']>(async () => 1),
    closeWindow: vi.fn<PickerBrowser['closeWindow']>(async (id) => void windows.delete(id)),
    deliver: vi.fn<PickerBrowser['deliver']>(async () => true),
  };
  const picker = createTemplatePicker({
    webOrigin: WEB,
    store: { get: async () => pending, set: async (list) => void (pending = list) },
    browser,
  });
  return { picker, browser, pending: () => pending, windows };
}

describe('the template picker (background)', () => {
  it('opens the web app’s picker in a small popup beside the window, and hands the choice to the frame that asked', async () => {
    const { picker, browser, pending, windows } = setup();
    expect(await picker.open({ request: REQUEST }, { ...gmail, frameId: 3 })).toEqual({ opened: true });
    expect(browser.createPopup).toHaveBeenCalledWith({
      url: `${WEB}${PICKER_PATH}`,
      width: 440,
      height: 640,
      left: 100 + 1200 - 440 - 24,
      top: 50 + 72,
    });
    expect(pending()).toEqual([{ request: REQUEST, sourceTabId: 7, frameId: 3, windowId: 9, pickerTabId: 50 }]);

    expect(await picker.choose({ template }, pickerTab)).toEqual({ delivered: true });
    expect(browser.deliver).toHaveBeenCalledWith(7, 3, { request: REQUEST, template });
    // Taken once: the picker is forgotten, its window closed, and the person is back in the window they write in.
    expect(pending()).toEqual([]);
    expect(windows.has(9)).toBe(false);
    expect(browser.focusWindow).toHaveBeenLastCalledWith(1);
    expect(await picker.choose({ template }, pickerTab)).toEqual({ delivered: false });
    expect(browser.deliver).toHaveBeenCalledTimes(1);
  });

  it('takes a choice only from the tab of a picker it is waiting on', async () => {
    const { picker, browser } = setup();
    // Nothing opened yet: the web app's bridge in any tab is refused.
    expect(await picker.choose({ template }, pickerTab)).toEqual({ delivered: false });
    await picker.open({ request: REQUEST }, gmail);
    // The web app open in another tab (the bridge there) cannot answer for the picker.
    expect(await picker.choose({ template }, { tab: { id: 8, windowId: 1 }, frameId: 0 })).toEqual({
      delivered: false,
    });
    expect(await picker.choose({ template }, { frameId: 0 })).toEqual({ delivered: false });
    expect(browser.deliver).not.toHaveBeenCalled();
    // A malformed template is refused outright, and the picker still waits.
    await expect(picker.choose({ template: { ...template, html: '<b>x</b>' } } as never, pickerTab)).rejects.toThrow(
      'Not a template',
    );
    expect(await picker.choose({ template }, pickerTab)).toEqual({ delivered: true });
  });

  it('one picker per tab: asking again brings it to the front for the new box; a closed one is opened anew', async () => {
    const { picker, browser, pending, windows } = setup();
    await picker.open({ request: REQUEST }, gmail);
    await picker.open({ request: OTHER_REQUEST }, { ...gmail, frameId: 2 });
    expect(browser.createPopup).toHaveBeenCalledTimes(1);
    expect(browser.focusWindow).toHaveBeenLastCalledWith(9);
    expect(pending()).toEqual([{ request: OTHER_REQUEST, sourceTabId: 7, frameId: 2, windowId: 9, pickerTabId: 50 }]);

    // The person closed the picker window: forgotten; the next ask opens a new one.
    windows.delete(9);
    await picker.forget({ windowId: 9 });
    expect(pending()).toEqual([]);
    await picker.open({ request: REQUEST }, gmail);
    expect(browser.createPopup).toHaveBeenCalledTimes(2);
    expect(pending()).toHaveLength(1);
  });

  it('closing the tab that asked closes its picker; a choice that finds no box keeps the window open', async () => {
    const { picker, browser, pending, windows } = setup();
    await picker.open({ request: REQUEST }, gmail);
    await picker.forget({ tabId: 7 });
    expect(pending()).toEqual([]);
    expect(windows.has(9)).toBe(false);

    await picker.open({ request: REQUEST }, gmail);
    browser.deliver.mockRejectedValueOnce(new Error('Could not establish connection. Receiving end does not exist.'));
    expect(await picker.choose({ template }, { tab: { id: 51, windowId: 10 }, frameId: 0 })).toEqual({
      delivered: false,
    });
    // The picker page says so; the person closes it.
    expect(windows.has(10)).toBe(true);
    expect(pending()).toEqual([]);
  });

  it('refuses an ask without a tab or with a made-up request', async () => {
    const { picker, browser } = setup();
    await expect(picker.open({ request: REQUEST }, { frameId: 0 })).rejects.toThrow();
    await expect(picker.open({ request: 'x' }, gmail)).rejects.toThrow();
    expect(browser.createPopup).not.toHaveBeenCalled();
  });
});
