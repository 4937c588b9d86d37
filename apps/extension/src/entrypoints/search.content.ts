import { defineContentScript } from 'wxt/utils/define-content-script';
import { translator } from '../features/content-ui/strings';
import { startSearchCard } from '../features/search-ai/search-ai';
import { runOnPage } from '../features/page-script';
import { search } from '../features/sites/search/index';

/**
 * Google, Bing and DuckDuckGo results pages: the Search with AI card while the setting is on (see
 * features/search-ai), and what every page gets.
 */
export default defineContentScript({
  matches: search.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runOnPage(ctx, [
      {
        on: (settings) => settings.searchWithAI !== '0',
        start: (language) => startSearchCard(ctx, translator(language)),
      },
    ]);
  },
});
