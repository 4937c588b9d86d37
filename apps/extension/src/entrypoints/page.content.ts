import { defineContentScript } from 'wxt/utils/define-content-script';
import type { PageReaderGlobal } from '../features/page-reader/read-page';
import { isDisabledHere } from '../features/site-guard';
import { browser } from 'wxt/browser';
import { onMessages } from '../messaging/messaging';

/**
 * The small script every web page gets (unless its site is disabled): it answers "read this page" for the side
 * panel's "Chat with this page". Readability is not in here: the page reader is imported into this isolated world on demand.
 */
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  async main() {
    if (await isDisabledHere()) return;
    const reader = globalThis as PageReaderGlobal;
    onMessages({
      READ_PAGE: async () => {
        if (!reader.__parleyReadPage) await import(/* @vite-ignore */ browser.runtime.getURL('/page-reader.js'));
        if (!reader.__parleyReadPage) throw new Error('The page reader did not load');
        return reader.__parleyReadPage();
      },
    });
  },
});
