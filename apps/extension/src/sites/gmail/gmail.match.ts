import type { SiteMeta } from '../shared/types.js';

export const meta = {
  id: 'gmail',
  matches: ['https://mail.google.com/*'],
  instantReply: 'instantReplyGmail',
  summarize: 'summarizeGmail',
} satisfies SiteMeta;

export const matches = meta.matches;

/** Gmail is one page app under /mail/; threads and compose windows come and go without navigation. */
export function match(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === 'mail.google.com' && url.pathname.startsWith('/mail/');
}
