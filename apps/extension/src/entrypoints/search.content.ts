import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { loadTranslator } from '../features/content-ui/strings';
import { startSearchCard } from '../features/search-ai/search-ai';
import { readStoredSettings } from '../features/settings/settings-store';
import { isDisabledHere } from '../features/site-guard';
import { search } from '../features/sites/search/index';

/** Google, Bing and DuckDuckGo results pages: the Search with AI card (see features/search-ai), when the setting is on. */
export default defineContentScript({
  matches: search.matches,
  runAt: 'document_idle',
  async main(ctx) {
    if (await isDisabledHere()) return;
    const settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
    if (settings.searchWithAI === '0') return;
    startSearchCard(ctx, await loadTranslator());
  },
});
