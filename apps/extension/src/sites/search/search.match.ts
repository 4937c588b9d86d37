import type { SiteMeta } from '../shared/types.js';

export type SearchEngine = 'google' | 'bing' | 'duckduckgo';

/**
 * Match patterns cannot wildcard a top-level domain, and `*://*\/*` would ask for every site; so the busiest
 * Google domains are listed, while match() accepts any google.<tld>.
 */
const GOOGLE_DOMAINS = [
  'google.com',
  'google.co.uk',
  'google.ca',
  'google.com.au',
  'google.co.in',
  'google.de',
  'google.fr',
  'google.es',
  'google.it',
  'google.nl',
  'google.be',
  'google.ch',
  'google.at',
  'google.ie',
  'google.pt',
  'google.pl',
  'google.se',
  'google.no',
  'google.dk',
  'google.fi',
  'google.com.br',
  'google.com.mx',
  'google.com.ar',
  'google.co.jp',
  'google.co.kr',
  'google.com.tr',
  'google.co.za',
  'google.co.nz',
  'google.com.sg',
  'google.ae',
];

export const meta = {
  id: 'search',
  matches: [
    ...GOOGLE_DOMAINS.map((domain) => `https://www.${domain}/search*`),
    'https://www.bing.com/search*',
    'https://duckduckgo.com/*',
  ],
  searchWithAI: 'searchWithAI',
} satisfies SiteMeta;

export const matches = meta.matches;

const GOOGLE_HOST = /^(www\.)?google\.(com|[a-z]{2,3}|com?\.[a-z]{2})$/;

/** Which engine's web results page this is, or null (image, news, video tabs and other pages are left alone). */
export function engineOf(url: URL): SearchEngine | null {
  if (url.protocol !== 'https:' || !url.searchParams.get('q')?.trim()) return null;
  const tab = url.searchParams;
  if (GOOGLE_HOST.test(url.hostname) && url.pathname === '/search') {
    // tbm selects images/news/videos/shopping; udm=14 is the plain "Web" tab, other udm values are not web results.
    return tab.get('tbm') || (tab.get('udm') && tab.get('udm') !== '14') ? null : 'google';
  }
  if (url.hostname === 'www.bing.com' && url.pathname === '/search') return 'bing';
  if (url.hostname === 'duckduckgo.com' && url.pathname === '/') {
    return tab.get('iax') || (tab.get('ia') && tab.get('ia') !== 'web') ? null : 'duckduckgo';
  }
  return null;
}

export function match(url: URL): boolean {
  return engineOf(url) !== null;
}
