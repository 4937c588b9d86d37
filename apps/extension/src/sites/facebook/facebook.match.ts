import type { SiteMeta } from '../shared/types.js';

export const meta = {
  id: 'facebook',
  matches: ['https://www.facebook.com/*'],
  instantReply: 'instantReplyFacebook',
} satisfies SiteMeta;

export const matches = meta.matches;

export function match(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === 'www.facebook.com';
}
