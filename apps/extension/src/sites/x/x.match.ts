import type { SiteMeta } from '../shared/types.js';

const HOSTS = ['x.com', 'twitter.com', 'mobile.x.com', 'mobile.twitter.com'];

export const meta = {
  id: 'x',
  matches: HOSTS.map((host) => `https://${host}/*`),
  instantReply: 'instantReplyTwitter',
} satisfies SiteMeta;

export const matches = meta.matches;

export function match(url: URL): boolean {
  return url.protocol === 'https:' && HOSTS.includes(url.hostname);
}
