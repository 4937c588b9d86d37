import { vi } from 'vitest';
import { browser } from 'wxt/browser';
import { ContentScriptContext } from '../platform/content-script/script-context';

/**
 * For unit tests of on-site UI in jsdom (not shipped: no content script imports it). jsdom, like a browser, makes every
 * event a script dispatches untrusted, which is exactly what a hostile page can do; `asPerson` stands in for a person's
 * input by handing a trusted event to the listeners the UI added, since no script can make a real one.
 */
export function onTestPage() {
  const roots: ShadowRoot[] = [];
  const attach = Element.prototype.attachShadow;
  vi.spyOn(Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init: ShadowRootInit) {
    const root = attach.call(this, init);
    roots.push(root);
    return root;
  });
  const listeners: Array<{ target: EventTarget; type: string; listener: EventListenerOrEventListenerObject }> = [];
  const add = EventTarget.prototype.addEventListener;
  vi.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (listener) listeners.push({ target: this, type, listener });
    add.call(this, type, listener, options);
  });
  // Every message a content script sends; API_CALL answers one text.
  const sent = vi
    .spyOn(browser.runtime, 'sendMessage')
    .mockImplementation(
      async () => ({ ok: true, data: { data: { text: 'The answer from the API' }, message: 'ok' } }) as never,
    );
  // jsdom has no clipboard: this one keeps what the UI copies.
  const copied: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  });
  const ctx = new ContentScriptContext('test');
  return {
    ctx,
    /** What was written to the clipboard, in order. */
    copied,
    /** The shadow roots attached since (closed ones included: the test holds the reference, as the UI does). */
    roots,
    /** The messages sent to the background, by type. */
    sentTypes: () => sent.mock.calls.map(([message]) => (message as unknown as { type: string }).type),
    /** What a person's own input does: the listeners on `target` for `type` get a trusted event. */
    asPerson(target: EventTarget, type: string, init: Record<string, unknown> = {}) {
      const event = {
        type,
        target,
        isTrusted: true,
        defaultPrevented: false,
        preventDefault() {
          event.defaultPrevented = true;
        },
        stopPropagation() {},
        composedPath: () => [target],
        ...init,
      } as { defaultPrevented: boolean } & Record<string, unknown>;
      for (const entry of listeners.filter((l) => l.target === target && l.type === type)) {
        if (typeof entry.listener === 'function') entry.listener.call(target, event as unknown as Event);
        else entry.listener.handleEvent(event as unknown as Event);
      }
    },
  };
}

/** Lets the UI's promises (mounting, API answers) settle. */
export const settle = async (times = 5) => {
  for (let i = 0; i < times; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The button that shows `text` in a shadow root (see showText). */
export function button(root: ParentNode, text: string): HTMLButtonElement {
  const found = Array.from(root.querySelectorAll('button')).find((b) => b.dataset.text === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found;
}
