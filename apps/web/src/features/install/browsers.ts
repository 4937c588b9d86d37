export const BROWSERS = ['chrome', 'edge', 'brave'] as const;
export type BrowserId = (typeof BROWSERS)[number];

/** Each browser's own extensions page. Pages cannot link to these addresses: people type them. */
export const EXTENSIONS_PAGE: Record<BrowserId, string> = {
  chrome: 'chrome://extensions',
  edge: 'edge://extensions',
  brave: 'brave://extensions',
};

/** The browser this page runs in, as far as the guide is concerned; anything else Chromium-based reads as Chrome. */
export function detectBrowser(nav: Pick<Navigator, 'userAgent'> & { brave?: unknown } = navigator): BrowserId {
  if (nav.brave) return 'brave';
  if (/\bEdg(A|iOS)?\//.test(nav.userAgent)) return 'edge';
  return 'chrome';
}
