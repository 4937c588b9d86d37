import { asArray, asRecord, clampLimit, endpoint, requestJson } from './request.js';
import { normalizeResults } from './results.js';
import type { AdapterOptions, WebSearch } from './types.js';

/** Tavily has no language parameter; the query's own language steers it. */
export function createTavilySearch(options: { apiKey: string; baseUrl?: string } & AdapterOptions): WebSearch {
  return {
    name: 'tavily',
    async search(query, opts = {}) {
      const limit = clampLimit(opts.limit);
      const url = endpoint(options.baseUrl ?? 'https://api.tavily.com', '/search');
      const init: RequestInit = {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${options.apiKey}`,
        },
        body: JSON.stringify({ query, max_results: limit, search_depth: 'basic' }),
      };
      const data = await requestJson(url, init, opts, options);
      return normalizeResults(
        asArray(asRecord(data).results),
        { title: 'title', url: 'url', snippet: 'content' },
        limit,
      );
    },
  };
}
