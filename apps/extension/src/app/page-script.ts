import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { PageReaderGlobal } from '../features/page-reader/read-page';
import { quickAccessParts } from '../features/quick-access/triggers';
import { shortcutsPart } from '../features/shortcuts/part';
import { onMessages } from '../platform/messaging/messaging';
import { startLive, type LivePart } from '../ui/on-site/live';

/**
 * What every page gets, from whichever one content script runs there (the page script, or a site's own script, which
 * the page script leaves those sites to): the answer to "read this page" for the side panel's "Chat with this page",
 * quick access, shortcuts, and the page's own `parts`, all following the settings live (see ui/on-site/live.ts). On a disabled
 * site nothing is mounted and the page is not read.
 */
export async function runOnPage(ctx: ContentScriptContext, parts: LivePart[] = []): Promise<void> {
  const reader = globalThis as PageReaderGlobal;
  let current: (() => { disabled: boolean }) | null = null;
  onMessages({
    READ_PAGE: async () => {
      if (!current || current().disabled) throw new Error('Parley is turned off on this site');
      if (!reader.__parleyReadPage) await import(/* @vite-ignore */ browser.runtime.getURL('/page-reader.js'));
      if (!reader.__parleyReadPage) throw new Error('The page reader did not load');
      return reader.__parleyReadPage();
    },
  });
  current = await startLive(ctx, [...parts, ...quickAccessParts(ctx), shortcutsPart(ctx)]);
}
