/** Reaching the outside world on a person's behalf: every request goes through safeFetch's SSRF policy. */
export {
  isBlockedAddress,
  safeFetch,
  type SafeFetch,
  type SafeFetchOptions,
  type SafeFetchResult,
} from './safe-fetch.js';
export { readPage, type Page, type PageFetch } from './page-reader.js';
export {
  fetchTranscript,
  parseYouTubeVideoId,
  type Transcript,
  type TranscriptFetch,
  type TranscriptSegment,
} from './youtube.js';
