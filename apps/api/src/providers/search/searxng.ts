import { asArray, asRecord, clampLimit, endpoint, requestJson } from './request.js';
import { normalizeResults } from './results.js';
import type { AdapterOptions, WebSearch } from './types.js';

/** A SearXNG instance with `json` enabled in `search.formats` (settings.yml); otherwise it answers 403. */
export function createSearxngSearch(options: { baseUrl: string } & AdapterOptions): WebSearch {
  return {
    name: 'searxng',
    async search(query, opts = {}) {
      const url = endpoint(options.baseUrl, '/search');
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('language', opts.language?.trim() || 'all');
      const data = await requestJson(url, { headers: { accept: 'application/json' } }, opts, options);
      // SearXNG has no count parameter: it returns a page of results, which we cut.
      return normalizeResults(
        asArray(asRecord(data).results),
        { title: 'title', url: 'url', snippet: 'content' },
        clampLimit(opts.limit),
      );
    },
  };
}
