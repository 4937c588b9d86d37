import { defineContentScript } from 'wxt/utils/define-content-script';
import { carryShortcuts } from '../app/carry-shortcuts';
import { runOnPage } from '../app/page-script';
import { startSearchCard } from '../features/search-ai/search-ai';
import { search } from '../sites/search/index';
import { translator } from '../ui/on-site/strings';

/**
 * Google, Bing and DuckDuckGo results pages: the Search with AI card while the setting is on (see
 * features/search-ai), and what every page gets, the shortcut expansion code included (people type in the search box).
 */
export default defineContentScript({
  matches: search.matches,
  runAt: 'document_idle',
  async main(ctx) {
    carryShortcuts();
    await runOnPage(ctx, [
      {
        on: (settings) => settings.searchWithAI !== '0',
        start: (language) => startSearchCard(ctx, translator(language)),
      },
    ]);
  },
});
