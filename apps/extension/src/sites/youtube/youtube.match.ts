import type { SiteMeta } from '../shared/types.js';

export const meta = {
  id: 'youtube',
  // YouTube navigates without reloading, so the script runs site-wide and match() decides per URL.
  matches: ['https://www.youtube.com/*'],
  instantReply: 'instantReplyYoutube',
  summarize: 'summarizeYoutube',
} satisfies SiteMeta;

export const matches = meta.matches;

/** Watch pages: /watch?v=… */
export function match(url: URL): boolean {
  return (
    url.protocol === 'https:' &&
    url.hostname === 'www.youtube.com' &&
    url.pathname === '/watch' &&
    Boolean(url.searchParams.get('v'))
  );
}
