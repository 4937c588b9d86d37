import { Readability } from '@mozilla/readability';
import type { PageContent } from '../../platform/messaging/protocol';

/** Room left in a chat message (CHAT_TEXT_MAX is 32,000) for the person's own question. */
export const PAGE_TEXT_LIMIT = 24_000;

const tidy = (text: string) =>
  text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'LI',
  'TR',
  'PRE',
  'BLOCKQUOTE',
  'FIGCAPTION',
  'BR',
  'HR',
  'DT',
  'DD',
]);

/** Text of Readability's HTML with line breaks between blocks, parsed in an inert document (nothing loads or runs). */
function htmlToText(html: string, doc: Document): string | null {
  let inert: Document | null = null;
  if (typeof DOMParser === 'function')
    inert = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
  else if (doc.implementation?.createHTMLDocument) {
    inert = doc.implementation.createHTMLDocument('');
    inert.body.innerHTML = html;
  }
  if (!inert?.body) return null;
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) out.push(node.nodeValue ?? '');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (node.nodeType === 1 && BLOCKS.has((node as Element).tagName.toUpperCase())) out.push('\n');
  };
  walk(inert.body);
  return out.join('');
}

/**
 * The readable text of a document (Readability on a copy, so the page is untouched), framed with its title and address
 * and cut to the limit. The result is data to talk about, never instructions: the chat sends it as quoted context.
 */
export function readPage(doc: Document, url: string, limit = PAGE_TEXT_LIMIT): PageContent {
  let title = doc.title || url;
  let body = '';
  try {
    const article = new Readability(doc.cloneNode(true) as Document).parse();
    if (article?.textContent) {
      body = (article.content && htmlToText(article.content, doc)) || article.textContent;
      title = article.title || title;
    }
  } catch {
    // Readability gives up on some documents: fall back to the visible text.
  }
  if (!body) body = doc.body?.innerText ?? doc.body?.textContent ?? '';
  body = tidy(body);
  title = tidy(title);

  const header = `${title}\n${url}\n\n`;
  const room = Math.max(0, limit - header.length);
  const truncated = body.length > room;
  return {
    title,
    url,
    text: header + (truncated ? body.slice(0, room) : body),
    originalLength: body.length,
    truncated,
  };
}

/** Set by the page reader script in the content scripts' isolated world. */
export type PageReaderGlobal = { __parleyReadPage?: () => PageContent };
