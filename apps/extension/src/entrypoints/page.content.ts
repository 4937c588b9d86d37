import { defineContentScript } from 'wxt/utils/define-content-script';
import { runOnPage } from '../app/page-script';
import { sites } from '../sites/catalog';

/**
 * The small script every other web page gets: "Chat with this page" for the side panel, and the mini menu and
 * quick-access shortcut (see app/page-script.ts). Readability and the quick-access UI are not in here: each is
 * imported into this isolated world on first use. The sites with a script of their own are left out: that script
 * does the same, so each page pays for one content script.
 */
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  excludeMatches: Object.values(sites).flatMap((site) => site.matches),
  runAt: 'document_idle',
  async main(ctx) {
    await runOnPage(ctx);
  },
});
