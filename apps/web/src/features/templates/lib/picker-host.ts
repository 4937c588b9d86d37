import type { Template } from '@parley/contract';

/**
 * Who opened /template-app.
 * - `bridge`: the extension opened it in a window of its own (`?from=extension`; the web app may not be framed by other
 *   sites, see the API's frame-ancestors). The choice is posted on this very window, to this origin only, where the
 *   extension's bridge content script hears it (apps/extension/src/platform/messaging/template-choice.ts); the
 *   extension takes it only from a window it opened and is waiting on, so the query parameter decides nothing but
 *   what the buttons say. The bridge answers whether it reached the box (`PARLEY_TEMPLATE_RECEIVED`).
 * - `extension`: a frame of one of the extension's own pages, or a window opened from one: the template is posted to
 *   that window, and to its exact extension origin only, so no web page (Gmail, a site that framed the picker) ever
 *   hears it.
 * - `standalone`: opened any other way, the picker copies the template's text to the clipboard instead.
 */
export type PickerHost =
  { kind: 'bridge' } | { kind: 'extension'; target: Window; origin: string } | { kind: 'standalone' };

/** Message the picker posts to the extension: `{ type, template: { id, kind, title, body, language } }`. */
export const TEMPLATE_CHOSEN = 'PARLEY_TEMPLATE_CHOSEN';
/** The extension's bridge → the picker: `{ type, delivered }`. */
export const TEMPLATE_RECEIVED = 'PARLEY_TEMPLATE_RECEIVED';
/** How long the picker waits for the bridge's answer (it answers within milliseconds when installed). */
export const RECEIPT_TIMEOUT_MS = 4000;

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[a-z0-9-]{1,64}$/i;

export const isExtensionOrigin = (origin: string | null | undefined): origin is string =>
  !!origin && EXTENSION_ORIGIN.test(origin);

function originOf(url: string): string | null {
  try {
    const { protocol, host } = new URL(url);
    return host ? `${protocol}//${host}` : null;
  } catch {
    return null;
  }
}

type HostWindow = Pick<Window, 'parent' | 'opener'> & {
  location: Pick<Location, 'ancestorOrigins'>;
  document: Pick<Document, 'referrer'>;
};

/** `markedFromExtension`: the page's address says `from=extension` (the router's search parameters). */
export function findPickerHost(
  win: HostWindow = window as unknown as HostWindow,
  markedFromExtension = false,
): PickerHost {
  const framed = win.parent && win.parent !== (win as unknown as Window);
  if (framed) {
    // The frame's parent: Chromium names it (ancestorOrigins); elsewhere the referrer is the page that framed it.
    const parentOrigin = win.location.ancestorOrigins?.[0] ?? originOf(win.document.referrer);
    return isExtensionOrigin(parentOrigin)
      ? { kind: 'extension', target: win.parent, origin: parentOrigin }
      : { kind: 'standalone' };
  }
  const opener = win.opener as Window | null;
  const openerOrigin = originOf(win.document.referrer);
  if (opener && isExtensionOrigin(openerOrigin)) return { kind: 'extension', target: opener, origin: openerOrigin };
  if (markedFromExtension) return { kind: 'bridge' };
  return { kind: 'standalone' };
}

/** Hands the chosen template to the extension that opened the picker. */
export function postTemplate(host: Exclude<PickerHost, { kind: 'standalone' }>, template: Template): void {
  const { id, kind, title, body, language } = template;
  const message = { type: TEMPLATE_CHOSEN, template: { id, kind, title, body, language } };
  if (host.kind === 'bridge') window.postMessage(message, window.location.origin);
  else host.target.postMessage(message, host.origin);
}

/**
 * The bridge's answer to a template posted in `bridge` mode: whether it reached the box (the extension then closes
 * this window), or null when nothing answered in time (no extension in this browser, or an old one).
 */
export function awaitReceipt(timeoutMs = RECEIPT_TIMEOUT_MS): Promise<boolean | null> {
  return new Promise((resolve) => {
    const done = (value: boolean | null) => {
      window.removeEventListener('message', onMessage);
      window.clearTimeout(timer);
      resolve(value);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window || event.origin !== window.location.origin) return;
      const data = event.data as { type?: unknown; delivered?: unknown } | null;
      if (data && typeof data === 'object' && data.type === TEMPLATE_RECEIVED && typeof data.delivered === 'boolean') {
        done(data.delivered);
      }
    };
    const timer = window.setTimeout(() => done(null), timeoutMs);
    window.addEventListener('message', onMessage);
  });
}
