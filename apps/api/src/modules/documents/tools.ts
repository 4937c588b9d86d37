import type { Config } from '../../config.js';
import { createWebSearch } from '../../providers/search/index.js';
import { readPage } from '../../providers/web/page-reader.js';
import { safeFetch, type SafeFetchOptions } from '../../providers/web/safe-fetch.js';
import { fetchTranscript, parseYouTubeVideoId } from '../../providers/web/youtube.js';
import { extractPdfPages } from './pdf.js';
import { buildDocumentContext, type DocumentContext } from './retrieval.js';
import { acceptAttachment, ATTACHMENT_LIMITS, checkAttachmentCount } from './sniff.js';

export type BuildDocumentContext = (
  doc: { name: string; pages: { page: number; text: string }[] },
  question: string,
  budgetTokens: number,
) => DocumentContext;

export type Transcript = {
  videoId: string;
  title: string;
  language: string;
  text: string;
  segments: { start: number; duration: number; text: string }[];
};

/** Everything from outside that reading a document may need, passed in so tests and production wire their own. */
export type DocumentTools = {
  /** The file as it may be kept: of a supported kind, within limits, an image without its metadata. */
  checkAttachment: (file: { bytes: Uint8Array; declaredName?: string; declaredType?: string }) => {
    kind: 'image' | 'pdf';
    mediaType: string;
    bytes: Buffer;
  };
  checkAttachmentCount: (count: number) => void;
  extractPdf: (
    bytes: Uint8Array,
  ) => Promise<{ pageCount: number; pages: { page: number; text: string }[]; title?: string }>;
  buildDocumentContext: BuildDocumentContext;
  /** `signal`: the call stops when it aborts (its client went away). */
  readPage: (url: string, signal?: AbortSignal) => Promise<{ url: string; title: string; text: string }>;
  parseYouTubeVideoId: (url: string) => string | null;
  fetchTranscript: (videoId: string, signal?: AbortSignal) => Promise<Transcript>;
  search:
    | ((
        query: string,
        opts: { limit: number; language?: string; signal?: AbortSignal },
      ) => Promise<{ title: string; url: string; snippet: string }[]>)
    | null;
};

/** The real document, page, video and search tools, configured once. */
export function createDocumentTools(config: Config): DocumentTools {
  const fetchOptions: SafeFetchOptions = { allowedHosts: config.fetch.allowHosts };
  const fetcher =
    (signal: AbortSignal | undefined) =>
    (url: string, options: SafeFetchOptions = {}) =>
      safeFetch(url, { ...fetchOptions, ...options, ...(signal ? { signal } : {}) });
  const search = createWebSearch({
    provider: config.search.provider,
    url: config.search.url,
    apiKey: config.search.apiKey,
  });
  return {
    checkAttachment: (file) => acceptAttachment(file),
    checkAttachmentCount: (count) => checkAttachmentCount(count),
    extractPdf: (bytes) => extractPdfPages(bytes, { maxPages: ATTACHMENT_LIMITS.pdfMaxPages }),
    buildDocumentContext,
    readPage: (url, signal) => readPage(url, { fetch: fetcher(signal) }),
    parseYouTubeVideoId,
    fetchTranscript: (videoId, signal) =>
      fetchTranscript(videoId, { fetch: fetcher(signal), baseUrl: config.fetch.youtubeBaseUrl }),
    search: search ? (query, opts) => search.search(query, opts) : null,
  };
}

const PAGE_SIZE = 3000;

/** Splits a long text (a page or a transcript) into numbered chunks, so retrieval can pick the relevant ones. */
export function paginate(text: string) {
  const pages: { page: number; text: string }[] = [];
  for (let i = 0; i < text.length; i += PAGE_SIZE)
    pages.push({ page: pages.length + 1, text: text.slice(i, i + PAGE_SIZE) });
  return pages;
}

/** A web page, or a YouTube video's transcript, read as a document (nothing is stored). */
export type SourceDocument = {
  kind: 'page' | 'video';
  name: string;
  mediaType: string;
  size: number;
  url: string;
  pages: { page: number; text: string }[];
};

/** `signal`: the reading stops when it aborts. */
export async function readSource(tools: DocumentTools, url: string, signal?: AbortSignal): Promise<SourceDocument> {
  const videoId = tools.parseYouTubeVideoId(url);
  if (videoId) {
    const t = await tools.fetchTranscript(videoId, signal);
    return {
      kind: 'video',
      name: t.title || url,
      mediaType: 'text/plain',
      size: t.text.length,
      url,
      pages: paginate(t.text),
    };
  }
  const page = await tools.readPage(url, signal);
  return {
    kind: 'page',
    name: page.title || page.url,
    mediaType: 'text/html',
    size: page.text.length,
    url: page.url,
    pages: paginate(page.text),
  };
}

/** Text the person sent (the page they are on, read by the extension) as a document. */
export function pageDocument(page: { url: string; title: string; text: string }): SourceDocument {
  return {
    kind: 'page',
    name: page.title || page.url,
    mediaType: 'text/plain',
    size: page.text.length,
    url: page.url,
    pages: paginate(page.text),
  };
}
