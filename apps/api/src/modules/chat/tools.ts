import type { Config } from '../../config.js';
import { acceptAttachment, checkAttachmentCount, ATTACHMENT_LIMITS } from '../../lib/documents/sniff.js';
import { extractPdfPages } from '../../lib/documents/pdf.js';
import { buildDocumentContext } from '../../lib/documents/retrieval.js';
import { createWebSearch } from '../../providers/search/index.js';
import { readPage } from '../../providers/web/page-reader.js';
import { safeFetch, type SafeFetchOptions } from '../../providers/web/safe-fetch.js';
import { fetchTranscript, parseYouTubeVideoId } from '../../providers/web/youtube.js';
import type { ChatTools } from './chat.service.js';

/** The real document, page, video and search tools, configured once. */
export function createChatTools(config: Config): ChatTools {
  const fetchOptions: SafeFetchOptions = { allowedHosts: config.fetch.allowHosts };
  const fetcher = (url: string, options: SafeFetchOptions = {}) => safeFetch(url, { ...fetchOptions, ...options });
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
    readPage: (url) => readPage(url, { fetch: fetcher }),
    parseYouTubeVideoId,
    fetchTranscript: (videoId) => fetchTranscript(videoId, { fetch: fetcher, baseUrl: config.fetch.youtubeBaseUrl }),
    search: search ? (query, opts) => search.search(query, opts) : null,
  };
}
