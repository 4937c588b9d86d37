import type { SiteMeta } from '../shared/types.js';

export const meta = {
  id: 'linkedin',
  matches: ['https://www.linkedin.com/*'],
  instantReply: 'instantReplyLinkedin',
} satisfies SiteMeta;

export const matches = meta.matches;

/** Comment boxes appear on the feed, posts and profiles; message boxes in /messaging and in chat bubbles anywhere. */
export function match(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === 'www.linkedin.com';
}
