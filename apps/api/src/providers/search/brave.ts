import { asArray, asRecord, baseLanguage, clampLimit, endpoint, requestJson } from './request.js';
import { normalizeResults } from './results.js';
import type { AdapterOptions, WebSearch } from './types.js';

/**
 * Brave rejects (422) a `search_lang` outside its own list, which spells some languages its own way ("jp", "pt-br"),
 * so only languages it takes as plain ISO codes are passed on; others search without a language filter.
 */
const BRAVE_LANGUAGES = new Set([
  'en',
  'es',
  'fr',
  'de',
  'it',
  'nl',
  'pl',
  'ru',
  'sv',
  'da',
  'fi',
  'nb',
  'tr',
  'ko',
  'ar',
  'he',
  'hu',
  'cs',
  'uk',
  'ro',
]);

export function createBraveSearch(options: { apiKey: string; baseUrl?: string } & AdapterOptions): WebSearch {
  return {
    name: 'brave',
    async search(query, opts = {}) {
      const limit = clampLimit(opts.limit);
      const url = endpoint(options.baseUrl ?? 'https://api.search.brave.com', '/res/v1/web/search');
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(limit));
      const language = baseLanguage(opts.language);
      if (language && BRAVE_LANGUAGES.has(language)) url.searchParams.set('search_lang', language);
      const headers = { accept: 'application/json', 'x-subscription-token': options.apiKey };
      const data = await requestJson(url, { headers }, opts, options);
      const results = asArray(asRecord(asRecord(data).web).results);
      return normalizeResults(results, { title: 'title', url: 'url', snippet: 'description' }, limit);
    },
  };
}
