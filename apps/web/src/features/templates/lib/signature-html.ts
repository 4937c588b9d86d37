/**
 * Signature HTML in the browser. The server cleans every signature it stores; this does the same cleaning before
 * anything typed, pasted or loaded reaches the page, so hostile markup never becomes a live element of the app:
 * it is parsed in an inert document (DOMParser runs no script and loads no image) and only the formatting a mail
 * keeps is copied out — b/strong/i/em/u/s/br/p/div/span/ul/ol/li, links to http(s)/mailto/tel and https images —
 * with the server's rules (apps/api/src/modules/templates/clean-html.ts).
 */

const KEPT = new Set(['b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'div', 'span', 'ul', 'ol', 'li', 'a', 'img']);
/** Elements whose content goes too (everything else unknown is unwrapped and keeps its text). */
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'title',
  'meta',
  'link',
  'textarea',
  'select',
  'button',
  'input',
  'form',
  'audio',
  'video',
  'canvas',
]);
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** A link target a signature may keep (as written), or null: absolute http(s), mailto and tel only. */
export function safeHref(href: string | null | undefined): string | null {
  const value = href?.trim();
  if (!value || !/^(https?:\/\/|mailto:|tel:)/i.test(value)) return null;
  try {
    return LINK_PROTOCOLS.has(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}

/** What a person typed in the link box, as a link: `example.com` → https://example.com/, an address → mailto:. */
export function linkFromInput(input: string): string | null {
  const typed = input.trim();
  if (!typed || /\s/.test(typed)) return null;
  if (/^[^@/:]+@[^@/:]+\.[^@/:]+$/.test(typed)) return safeHref(`mailto:${typed}`);
  const direct = safeHref(typed);
  if (direct) return direct;
  if (/^[\w-]+(\.[\w-]+)+([/?#].*)?$/.test(typed)) return safeHref(`https://${typed}`);
  return null;
}

function safeImageSrc(src: string | null): string | null {
  const value = src?.trim();
  if (!value || !/^https:\/\//i.test(value)) return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

function copyChildren(from: Node, to: Element, doc: Document): void {
  for (const child of Array.from(from.childNodes)) {
    if (child.nodeType === 3) {
      to.append(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED.has(tag)) continue;
    if (!KEPT.has(tag)) {
      copyChildren(element, to, doc);
      continue;
    }
    if (tag === 'img') {
      const src = safeImageSrc(element.getAttribute('src'));
      if (!src) continue;
      const img = doc.createElement('img');
      img.setAttribute('src', src);
      for (const name of ['alt', 'width', 'height']) {
        const value = element.getAttribute(name);
        if (value !== null) img.setAttribute(name, value);
      }
      to.append(img);
      continue;
    }
    const copy = doc.createElement(tag);
    if (tag === 'a') {
      // As the server stores links: their address when it is safe, opened in a new tab without the opener.
      const href = safeHref(element.getAttribute('href'));
      if (href) copy.setAttribute('href', href);
      const title = element.getAttribute('title');
      if (title !== null) copy.setAttribute('title', title);
      copy.setAttribute('target', '_blank');
      copy.setAttribute('rel', 'noopener noreferrer');
    }
    copyChildren(element, copy, doc);
    to.append(copy);
  }
}

/** The signature HTML a mail keeps (see above); safe to put in the page. */
export function cleanSignatureHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const out = doc.createElement('div');
  copyChildren(doc.body, out, doc);
  return out.innerHTML;
}

/** Whether the HTML shows nothing (no text, no image). */
export function isBlankHtml(html: string): boolean {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  return !doc.body.textContent?.trim() && !doc.body.querySelector('img');
}

/** The cleaned HTML as nodes of this page, built in an inert <template> first. */
export function cleanFragment(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = cleanSignatureHtml(html);
  return document.importNode(template.content, true);
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The document of the preview "as the mail will show it": a short sample mail, then the signature. It is shown in
 * an iframe sandboxed without scripts, and its own policy allows no script, no connection and https images only.
 */
export function previewDocument(
  cleanHtml: string,
  sample: { lang: string; greeting: string | null; body: string | null },
): string {
  const mail =
    sample.greeting !== null && sample.body !== null
      ? `<p>${escapeText(sample.greeting)}</p><p>${escapeText(sample.body)}</p>\n<div class="sep">--</div>`
      : '';
  return `<!doctype html><html lang="${escapeText(sample.lang)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline'">
<base target="_blank">
<style>
body{margin:0;padding:16px;font:14px/1.5 Arial,Helvetica,sans-serif;color:#202124;background:#fff;overflow-wrap:anywhere}
a{color:#1a0dab}img{max-width:100%;height:auto}ul,ol{padding-left:1.5em}p{margin:0 0 .5em}
.sig{color:#3c4043}.sep{color:#5f6368;margin-bottom:16px}
</style></head><body>${mail}<div class="sig">${cleanHtml}</div></body></html>`;
}

/** Sandbox of the preview frame: links may open in a new tab, nothing may run. */
export const PREVIEW_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';
