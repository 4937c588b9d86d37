/**
 * A signature's HTML, rebuilt for a live page from an allowlist. The server already cleaned it, but what goes into a
 * person's mail editor on Gmail or Outlook is decided here too: the string is parsed into an inert document
 * (DOMParser: no script runs, nothing loads) and only these elements and attributes are copied, as new nodes of the
 * page's document: a[href] (http, https, mailto, tel), img[src] (https, with a numeric width and height and its alt). Everything else is dropped: with its content for elements that hold code, styles, frames or foreign
 * markup (script, style, iframe, svg, math, template…), keeping its text for other unknown elements (a `<table>`'s
 * cells, a `<font>`). The raw string is never assigned as HTML to the live page.
 */

const ELEMENTS = new Set(['b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'div', 'span', 'ul', 'ol', 'li', 'a', 'img']);

/** Dropped with everything inside them. */
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'svg',
  'math',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'form',
  'input',
  'textarea',
  'select',
  'button',
  'audio',
  'video',
  'canvas',
  'xmp',
  'plaintext',
]);

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const IMAGE_PROTOCOLS = new Set(['https:']);
/** Bounds on what is rebuilt (a signature is small; SIGNATURE_HTML_MAX is 20 000 characters). */
const MAX_DEPTH = 24;
const MAX_NODES = 2_000;

function safeUrl(value: string | null, protocols: ReadonlySet<string>): string | null {
  if (!value) return null;
  try {
    // No base: a relative address (which would resolve against Gmail's own origin) is refused.
    const url = new URL(value.trim());
    return protocols.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** The signature as nodes of `doc`, built from the allowlist above. */
export function buildSafeFragment(html: string, doc: Document = document): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const out = doc.createDocumentFragment();
  let budget = MAX_NODES;

  const copy = (from: Node, into: Node, depth: number) => {
    for (let child = from.firstChild; child && budget > 0; child = child.nextSibling) {
      budget--;
      if (child.nodeType === Node.TEXT_NODE) {
        into.appendChild(doc.createTextNode((child as Text).data));
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue; // comments, processing instructions
      const element = child as Element;
      const name = element.localName;
      if (element.namespaceURI !== HTML_NS || DROPPED.has(name) || depth >= MAX_DEPTH) continue;
      if (!ELEMENTS.has(name)) {
        copy(element, into, depth + 1);
        continue;
      }
      if (name === 'img') {
        const src = safeUrl(element.getAttribute('src'), IMAGE_PROTOCOLS);
        if (!src) continue;
        const img = doc.createElement('img');
        img.setAttribute('src', src);
        // A logo keeps the size and words it was given (the server keeps them too): plain numbers and text only.
        for (const size of ['width', 'height']) {
          const value = element.getAttribute(size);
          if (value && /^\d{1,4}$/.test(value)) img.setAttribute(size, value);
        }
        const alt = element.getAttribute('alt');
        if (alt) img.setAttribute('alt', alt);
        into.appendChild(img);
        continue;
      }
      const made = doc.createElement(name);
      if (name === 'a') {
        const href = safeUrl(element.getAttribute('href'), LINK_PROTOCOLS);
        if (href) made.setAttribute('href', href);
      }
      copy(element, made, depth + 1);
      into.appendChild(made);
    }
  };

  copy(parsed.body, out, 0);
  return out;
}
