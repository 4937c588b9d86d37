import type { SenderKind } from './protocol';

/** The fields of the browser's MessageSender that decide trust. */
export type SenderLike = {
  id?: string;
  url?: string;
  origin?: string;
  frameId?: number;
  tab?: { id?: number; windowId?: number };
};

export type SenderContext = {
  extensionId: string;
  /** chrome-extension://<id> */
  extensionOrigin: string;
  /** The configured web app origin, e.g. http://localhost:3000. */
  webOrigin: string;
};

/** scheme://host[:port] of a URL, or null. (URL#origin is 'null' for chrome-extension: outside a browser.) */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (!u.host) return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * Places a sender. Only the browser's own record counts (id, url, origin, tab, frame), never anything in the payload:
 * - another extension or a web page (id differs) is foreign;
 * - our pages and the background have a URL under our own origin;
 * - a content script has a tab; it is the web-app bridge only in the top frame of the web app origin, compared
 *   exactly (scheme, host and port);
 * - when the browser also gives `origin`, it must agree with the URL (an about:blank or sandboxed frame does not).
 */
export function classifySender(sender: SenderLike | undefined, ctx: SenderContext): SenderKind {
  if (!sender || !ctx.extensionId || sender.id !== ctx.extensionId) return 'foreign';
  const urlOrigin = originOf(sender.url);
  const agrees = (expected: string) =>
    urlOrigin === expected && (sender.origin === undefined || sender.origin === expected);

  if (agrees(ctx.extensionOrigin)) return 'extension';
  if (!sender.tab || typeof sender.tab.id !== 'number') return 'foreign';
  if (sender.frameId === 0 && agrees(ctx.webOrigin)) return 'web-bridge';
  return 'content-script';
}
