import type { PageContent } from '../../platform/messaging/protocol';

/** Room left in a chat message for the person's own question, as for "Chat with this page". */
export const TRANSCRIPT_TEXT_LIMIT = 24_000;

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const WATCH_HOSTS = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com']);

/** The video id of a youtube.com/watch address, else null. */
export function youtubeVideoId(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || !WATCH_HOSTS.has(parsed.hostname) || parsed.pathname !== '/watch') return null;
  const id = parsed.searchParams.get('v');
  return id && VIDEO_ID.test(id) ? id : null;
}

/** One caption line: seconds from the start and its text. */
export type TranscriptLine = { start: number; text: string };

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** YouTube's json3 timed text: `events[]` with `tStartMs` and `segs[].utf8`; events without words are skipped. */
export function parseJson3(data: unknown): TranscriptLine[] {
  const events = asRecord(data).events;
  if (!Array.isArray(events)) return [];
  const lines: TranscriptLine[] = [];
  for (const event of events.map(asRecord)) {
    if (!Array.isArray(event.segs)) continue;
    const text = event.segs
      .map((s) => asRecord(s).utf8)
      .filter((s): s is string => typeof s === 'string')
      .join('')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim();
    if (!text) continue;
    const ms = typeof event.tStartMs === 'number' && Number.isFinite(event.tStartMs) ? event.tStartMs : 0;
    lines.push({ start: Math.max(0, ms) / 1000, text });
  }
  return lines;
}

/** `[m:ss]` (or `[h:mm:ss]`) before each line, so questions about "when" can be answered. */
export function formatTimestamp(seconds: number): string {
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function transcriptText(lines: TranscriptLine[]): string {
  return lines.map((line) => `[${formatTimestamp(line.start)}] ${line.text}`).join('\n');
}

/** What "Chat with this video" sends as `page`: title, address and transcript, cut to the limit like a page. */
export function transcriptPage(
  video: { title: string; url: string; transcript: string },
  limit = TRANSCRIPT_TEXT_LIMIT,
): PageContent {
  const title = video.title.replace(/\s+/g, ' ').trim() || video.url;
  const body = video.transcript.trim();
  const header = `${title}\n${video.url}\n\n`;
  const room = Math.max(0, limit - header.length);
  const truncated = body.length > room;
  return {
    title,
    url: video.url,
    text: header + (truncated ? body.slice(0, room) : body),
    originalLength: body.length,
    truncated,
  };
}

/** What the page gave: the chosen caption track as json3, or the lines of the open transcript panel. */
export type TranscriptRead = {
  videoId: string | null;
  title: string;
  json3: unknown;
  panelLines: string[];
};

/**
 * Injected into the watch page's main world (chrome.scripting, world MAIN), so it must not use anything from outside
 * its own body. The live player's response comes first (ytInitialPlayerResponse goes stale when YouTube moves to
 * another video without loading a page); its caption tracks are fetched from the page's own origin as json3 (manual
 * captions in the wanted language first, then automatic ones, then any). When that gives nothing, the lines of an
 * open transcript panel are read from the page.
 */
export async function readTranscriptInPage(language: string): Promise<TranscriptRead> {
  type Track = { baseUrl?: unknown; languageCode?: unknown; kind?: unknown };
  type Player = {
    videoDetails?: { videoId?: unknown; title?: unknown };
    captions?: { playerCaptionsTracklistRenderer?: { captionTracks?: unknown } };
  };
  const wanted = new URLSearchParams(location.search).get('v');
  const candidates: unknown[] = [];
  try {
    const player = document.getElementById('movie_player') as unknown as { getPlayerResponse?: () => unknown } | null;
    if (typeof player?.getPlayerResponse === 'function') candidates.push(player.getPlayerResponse());
  } catch {
    // The player is not ready: the initial response below still describes the page.
  }
  candidates.push((window as unknown as { ytInitialPlayerResponse?: unknown }).ytInitialPlayerResponse);
  const responses = candidates.filter((c): c is Player => !!c && typeof c === 'object');
  const response =
    responses.find((r) => typeof r.videoDetails?.videoId === 'string' && r.videoDetails.videoId === wanted) ??
    responses[0];

  const rawTitle = response?.videoDetails?.title;
  const title = typeof rawTitle === 'string' && rawTitle ? rawTitle : document.title.replace(/\s*-\s*YouTube\s*$/, '');
  const rawTracks = response?.captions?.playerCaptionsTracklistRenderer?.captionTracks;
  const tracks = (Array.isArray(rawTracks) ? (rawTracks as Track[]) : []).filter(
    (t) => typeof t.baseUrl === 'string' && typeof t.languageCode === 'string',
  );
  const base = (code: unknown) => String(code).toLowerCase().split('-')[0];
  const lang = language.toLowerCase().split('-')[0];
  const rank = (t: Track) => (base(t.languageCode) === lang ? 0 : 2) + (t.kind === 'asr' ? 1 : 0);
  const ordered = [...tracks].sort((a, b) => rank(a) - rank(b));

  let json3: unknown = null;
  for (const track of ordered.slice(0, 3)) {
    try {
      const listed = new URL(String(track.baseUrl), location.origin);
      // Only the path and query: the request stays on the page's own origin.
      const url = new URL(listed.pathname + listed.search, location.origin);
      url.searchParams.set('fmt', 'json3');
      const res = await fetch(url.href, { credentials: 'include' });
      if (!res.ok) continue;
      const body = await res.text();
      if (!body.trim()) continue;
      json3 = JSON.parse(body);
      break;
    } catch {
      // Next track.
    }
  }

  const panelLines = Array.from(document.querySelectorAll('ytd-transcript-segment-renderer'), (segment) => {
    const time = segment.querySelector('.segment-timestamp')?.textContent?.trim() ?? '';
    const text = (segment.querySelector('.segment-text')?.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text ? (time ? `[${time}] ${text}` : text) : '';
  }).filter(Boolean);

  const videoId = typeof response?.videoDetails?.videoId === 'string' ? response.videoDetails.videoId : wanted;
  return { videoId, title, json3, panelLines };
}
