import type { SiteMeta } from '../shared/types.js';

export const meta = {
  id: 'instagram',
  matches: ['https://www.instagram.com/*'],
  instantReply: 'instantReplyInstagram',
} satisfies SiteMeta;

export const matches = meta.matches;

/** Posts open as pages (/p/, /reel/) and as dialogs over the feed or a profile: the whole site is watched. */
export function match(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === 'www.instagram.com';
}
