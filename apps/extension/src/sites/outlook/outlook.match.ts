import type { SiteMeta } from '../shared/types.js';

const HOSTS = ['outlook.live.com', 'outlook.office.com', 'outlook.office365.com'];

export const meta = {
  id: 'outlook',
  matches: HOSTS.map((host) => `https://${host}/*`),
  instantReply: 'instantReplyOutlook',
  summarize: 'summarizeOutlook',
} satisfies SiteMeta;

export const matches = meta.matches;

/** Outlook on the web (personal and work); mail lives under /mail/ (older tenants: /owa/). */
export function match(url: URL): boolean {
  return url.protocol === 'https:' && HOSTS.includes(url.hostname) && /^\/(mail|owa)(\/|$)/.test(url.pathname);
}
