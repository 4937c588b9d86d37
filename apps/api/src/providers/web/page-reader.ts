import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { DomainError } from '../../lib/errors.js';
import { decodeText } from './charset.js';
import { htmlToText } from './html-text.js';
import type { SafeFetchResult } from './safe-fetch.js';

/** The only thing the reader needs from the network: safeFetch with the server's policy already bound. */
export type PageFetch = (url: string, options?: { accept?: string }) => Promise<SafeFetchResult>;

export type Page = {
  url: string;
  title: string;
  byline?: string;
  siteName?: string;
  lang?: string;
  text: string;
  excerpt?: string;
  wordCount: number;
};

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const DEFAULT_MAX_CHARS = 200_000;
/** Elements that are never the article when Readability finds nothing and we fall back to the whole body. */
const CHROME =
  'script, style, noscript, template, nav, header, footer, aside, form, [role="navigation"], [role="banner"], [aria-hidden="true"]';

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** A missing Content-Type is common on small servers; accept it only when the bytes plainly are HTML. */
function looksLikeHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(
    body
      .subarray(0, 512)
      .toString('latin1')
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, ''),
  );
}

function assertHtml(result: SafeFetchResult) {
  if (result.status < 200 || result.status >= 300) throw new DomainError('FETCH_FAILED');
  const type = mediaType(result.contentType);
  if (HTML_TYPES.has(type) || (type === '' && looksLikeHtml(result.body))) return;
  throw new DomainError('FETCH_FAILED');
}

function clean(value: string | null | undefined, max: number): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
}

/** Cuts at a paragraph boundary when one is reasonably close, so the text does not end mid-sentence. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n\n', maxChars);
  return (cut > maxChars * 0.8 ? text.slice(0, cut) : text.slice(0, maxChars)).trimEnd();
}

/** Scripts written without spaces between words: only these need a dictionary-based segmenter. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Intl.Segmenter slows down quadratically on long strings in V8, so it only ever sees short slices. */
const SEGMENT_SLICE = 256;

function segmenterFor(lang?: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(lang ? Intl.getCanonicalLocales(lang) : undefined, { granularity: 'word' });
  } catch {
    return new Intl.Segmenter(undefined, { granularity: 'word' });
  }
}

/** Words as a reader would count them, including languages written without spaces. */
export function countWords(text: string, lang?: string): number {
  const segmenter = segmenterFor(lang);
  let count = 0;
  for (const token of text.split(/\s+/)) {
    if (!UNSPACED.test(token)) {
      if (/[\p{L}\p{N}]/u.test(token)) count++;
      continue;
    }
    for (let i = 0; i < token.length; i += SEGMENT_SLICE) {
      for (const segment of segmenter.segment(token.slice(i, i + SEGMENT_SLICE))) if (segment.isWordLike) count++;
    }
  }
  return count;
}

type Extracted = { title?: string; byline?: string; siteName?: string; lang?: string; excerpt?: string; text: string };

function extractArticle(document: Document): Extracted | null {
  try {
    const article = new Readability<Node>(document, { serializer: (node) => node }).parse();
    const text = article?.content ? htmlToText(article.content) : '';
    if (!article || !text) return null;
    return {
      title: clean(article.title, 300),
      byline: clean(article.byline, 200),
      siteName: clean(article.siteName, 200),
      lang: clean(article.lang, 35),
      excerpt: clean(article.excerpt, 500),
      text,
    };
  } catch {
    return null; // Readability gives up on some odd documents; the body fallback still reads them
  }
}

function extractBody(document: Document): Extracted {
  const title = clean(document.title, 300);
  const lang = clean(document.documentElement?.getAttribute('lang'), 35);
  const body = document.body;
  if (!body) return { title, lang, text: '' };
  for (const element of Array.from(body.querySelectorAll(CHROME))) element.remove();
  return { title, lang, text: htmlToText(body) };
}

function parseDocument(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

/**
 * Reads the main text of a web page for the model: fetched through the injected safe fetch, decoded by the page's
 * charset, reduced by Readability (or the whole body when it finds no article), and capped.
 */
export async function readPage(
  url: string,
  deps: { fetch: PageFetch },
  options: { maxChars?: number } = {},
): Promise<Page> {
  const response = await deps.fetch(url, { accept: 'text/html,application/xhtml+xml;q=0.9' });
  assertHtml(response);
  const html = decodeText(response.body, response.contentType);
  // Readability changes the document it reads; the fallback gets a fresh parse.
  const extracted = extractArticle(parseDocument(html)) ?? extractBody(parseDocument(html));
  const lang = extracted.lang;
  const text = capText(extracted.text, options.maxChars ?? DEFAULT_MAX_CHARS);
  if (!text) throw new DomainError('FETCH_FAILED');
  return {
    url: response.url,
    title: extracted.title ?? new URL(response.url).hostname,
    ...(extracted.byline && { byline: extracted.byline }),
    ...(extracted.siteName && { siteName: extracted.siteName }),
    ...(lang && { lang }),
    text,
    ...(extracted.excerpt && { excerpt: extracted.excerpt }),
    wordCount: countWords(text, lang),
  };
}
