/**
 * Signature HTML in the browser. The server cleans every signature it stores; this does the same cleaning before
 * anything typed, pasted or loaded reaches the page, so hostile markup never becomes a live element of the app:
 * it is parsed in an inert document (DOMParser runs no script and loads no image) and only the formatting a mail
 * keeps is copied out — b/strong/i/em/u/s/br/p/div/span/ul/ol/li, links to http(s)/mailto/tel and https images.
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

/** A link target a signature may keep, or null. */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim());
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
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
  if (!src) return null;
  try {
    const url = new URL(src.trim());
    return url.protocol === 'https:' ? url.href : null;
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
      const alt = element.getAttribute('alt');
      if (alt) img.setAttribute('alt', alt);
      for (const size of ['width', 'height']) {
        const value = element.getAttribute(size);
        if (value && /^\d{1,4}$/.test(value)) img.setAttribute(size, value);
      }
      to.append(img);
      continue;
    }
    const copy = doc.createElement(tag);
    if (tag === 'a') {
      const href = safeHref(element.getAttribute('href'));
      if (href) copy.setAttribute('href', href);
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
export function previewDocument(cleanHtml: string, sample: { lang: string; greeting: string; body: string }): string {
  return `<!doctype html><html lang="${escapeText(sample.lang)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline'">
<base target="_blank">
<style>
body{margin:0;padding:16px;font:14px/1.5 Arial,Helvetica,sans-serif;color:#202124;background:#fff;overflow-wrap:anywhere}
a{color:#1a0dab}img{max-width:100%;height:auto}ul,ol{padding-left:1.5em}p{margin:0 0 .5em}
.sig{margin-top:16px;color:#3c4043}.sep{color:#5f6368}
</style></head><body><p>${escapeText(sample.greeting)}</p><p>${escapeText(sample.body)}</p>
<div class="sep">--</div><div class="sig">${cleanHtml}</div></body></html>`;
}

/** Sandbox of the preview frame: links may open in a new tab, nothing may run. */
export const PREVIEW_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';
