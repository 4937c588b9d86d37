import { DomainError } from '../../lib/errors.js';
import { decodeEntities } from './entities.js';
import { extractAssignedObject } from './json-in-html.js';
import type { SafeFetchResult } from './safe-fetch.js';

/** safeFetch with the server's policy bound: the caption URL comes from the page, so it is as untrusted as the page. */
export type TranscriptFetch = (
  url: string,
  options?: { accept?: string; headers?: Record<string, string> },
) => Promise<SafeFetchResult>;

export type TranscriptSegment = { start: number; duration: number; text: string };
export type Transcript = {
  videoId: string;
  title: string;
  language: string;
  segments: TranscriptSegment[];
  text: string;
};

type CaptionTrack = { baseUrl: string; languageCode: string; kind?: string };

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const ID_IN_PATH = new Set(['shorts', 'embed', 'live', 'v']);

function parseLooseUrl(input: string): URL | null {
  const trimmed = input.trim();
  // People paste "youtu.be/…" or "www.youtube.com/watch?v=…" without a scheme.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

/** The 11-character video id of a YouTube video URL, or null for anything else (channels, playlists, other sites). */
export function parseYouTubeVideoId(input: string): string | null {
  const url = parseLooseUrl(input);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const [, first, second] = url.pathname.split('/');
  let candidate: string | null | undefined = null;
  if (host === 'youtu.be') candidate = first;
  else if (YOUTUBE_HOSTS.has(host) && first === 'watch') candidate = url.searchParams.get('v');
  else if (YOUTUBE_HOSTS.has(host) && first && ID_IN_PATH.has(first)) candidate = second;
  return candidate && VIDEO_ID.test(candidate) ? candidate : null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function captionTracks(player: Record<string, unknown>): CaptionTrack[] {
  const renderer = asRecord(asRecord(player.captions).playerCaptionsTracklistRenderer);
  const tracks = Array.isArray(renderer.captionTracks) ? renderer.captionTracks : [];
  return tracks
    .map(asRecord)
    .filter((t) => typeof t.baseUrl === 'string' && typeof t.languageCode === 'string')
    .map((t) => ({
      baseUrl: t.baseUrl as string,
      languageCode: t.languageCode as string,
      ...(typeof t.kind === 'string' && { kind: t.kind }),
    }));
}

function manualFirst(tracks: CaptionTrack[]): CaptionTrack | undefined {
  return tracks.find((t) => t.kind !== 'asr') ?? tracks[0];
}

/** The requested language (exact, then same base language), then human captions over automatic ones, then any. */
export function pickTrack(tracks: CaptionTrack[], lang?: string): CaptionTrack | undefined {
  if (lang) {
    const wanted = lang.toLowerCase();
    const exact = tracks.filter((t) => t.languageCode.toLowerCase() === wanted);
    const sameBase = tracks.filter((t) => t.languageCode.toLowerCase().split('-')[0] === wanted.split('-')[0]);
    const match = manualFirst(exact.length > 0 ? exact : sameBase);
    if (match) return match;
  }
  return manualFirst(tracks);
}

/** Only the path and query of the track URL are used: the host is always ours (baseUrl), whatever the page says. */
function captionUrl(track: CaptionTrack, baseUrl: string): string {
  const listed = new URL(track.baseUrl, baseUrl);
  const url = new URL(listed.pathname + listed.search, baseUrl);
  url.searchParams.set('fmt', 'json3');
  return url.href;
}

function cleanCaption(text: string): string {
  return decodeEntities(text)
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

function milliseconds(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** YouTube's json3 timed text: events with `segs[].utf8`; window definitions and line-break appends carry no text. */
export function parseJson3(data: unknown): TranscriptSegment[] {
  const events = asRecord(data).events;
  if (!Array.isArray(events)) return [];
  const segments: TranscriptSegment[] = [];
  for (const event of events.map(asRecord)) {
    if (!Array.isArray(event.segs)) continue;
    const text = cleanCaption(
      event.segs
        .map((s) => asRecord(s).utf8)
        .filter((s) => typeof s === 'string')
        .join(''),
    );
    if (text)
      segments.push({
        start: milliseconds(event.tStartMs) / 1000,
        duration: milliseconds(event.dDurationMs) / 1000,
        text,
      });
  }
  return segments;
}

function videoTitle(player: Record<string, unknown>): string {
  const title = asRecord(player.videoDetails).title;
  return typeof title === 'string' ? title : '';
}

async function fetchPlayerResponse(
  videoId: string,
  fetch: TranscriptFetch,
  baseUrl: string,
  headers: Record<string, string>,
) {
  const watchUrl = new URL('/watch', baseUrl);
  watchUrl.searchParams.set('v', videoId);
  const page = await fetch(watchUrl.href, { accept: 'text/html', headers });
  if (page.status < 200 || page.status >= 300) throw new DomainError('FETCH_FAILED');
  // A consent or bot-check page has no player response: the page, not the video, is the problem.
  const player = extractAssignedObject(page.body.toString('utf8'), 'ytInitialPlayerResponse');
  if (!player || typeof player !== 'object') throw new DomainError('FETCH_FAILED');
  return player as Record<string, unknown>;
}

async function fetchSegments(
  url: string,
  fetch: TranscriptFetch,
  headers: Record<string, string>,
): Promise<TranscriptSegment[]> {
  const response = await fetch(url, { accept: 'application/json', headers });
  // YouTube answers 200 with an empty body when it wants a proof-of-origin token: no transcript for us either way.
  if (response.status < 200 || response.status >= 300 || response.body.length === 0)
    throw new DomainError('TRANSCRIPT_UNAVAILABLE');
  try {
    return parseJson3(JSON.parse(response.body.toString('utf8')));
  } catch {
    throw new DomainError('TRANSCRIPT_UNAVAILABLE');
  }
}

/**
 * The captions of a YouTube video, read the way the watch page does: the player response embedded in the page
 * lists the caption tracks, and the chosen track is fetched as json3. Both requests go through the injected fetch.
 */
export async function fetchTranscript(
  videoId: string,
  options: { fetch: TranscriptFetch; baseUrl?: string; lang?: string },
): Promise<Transcript> {
  if (!VIDEO_ID.test(videoId)) throw new DomainError('URL_NOT_ALLOWED');
  const baseUrl = options.baseUrl ?? 'https://www.youtube.com';
  // SOCS=CAI declines the EU cookie-consent interstitial, which would otherwise replace the watch page.
  const headers = { 'accept-language': options.lang ?? 'en', cookie: 'SOCS=CAI' };
  const player = await fetchPlayerResponse(videoId, options.fetch, baseUrl, headers);
  const track = pickTrack(captionTracks(player), options.lang);
  if (!track) throw new DomainError('TRANSCRIPT_UNAVAILABLE');
  const segments = await fetchSegments(captionUrl(track, baseUrl), options.fetch, headers);
  if (segments.length === 0) throw new DomainError('TRANSCRIPT_UNAVAILABLE');
  return {
    videoId,
    title: videoTitle(player),
    language: track.languageCode,
    segments,
    text: segments.map((s) => s.text).join(' '),
  };
}
