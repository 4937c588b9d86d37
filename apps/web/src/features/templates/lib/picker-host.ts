import type { Template } from '@parley/contract';

/**
 * Who opened /template-app. The extension may show the picker in a frame of one of its own pages, or open it as a
 * window from one: then the chosen template is posted to that window, and to its exact extension origin only, so
 * no web page (Gmail, a site that framed the picker) ever hears it. Opened any other way, the picker copies the
 * template's text to the clipboard instead.
 */
export type PickerHost = { kind: 'extension'; target: Window; origin: string } | { kind: 'standalone' };

/** Message the picker posts to the extension: `{ type, template: { id, kind, title, body } }`. */
export const TEMPLATE_CHOSEN = 'PARLEY_TEMPLATE_CHOSEN';

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

export function findPickerHost(win: HostWindow = window as unknown as HostWindow): PickerHost {
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
  return { kind: 'standalone' };
}

/** Hands the chosen template to the extension that opened the picker. */
export function postTemplate(host: Extract<PickerHost, { kind: 'extension' }>, template: Template): void {
  const { id, kind, title, body } = template;
  host.target.postMessage({ type: TEMPLATE_CHOSEN, template: { id, kind, title, body } }, host.origin);
}
