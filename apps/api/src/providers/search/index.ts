import { createBraveSearch } from './brave.js';
import { createSearxngSearch } from './searxng.js';
import { createTavilySearch } from './tavily.js';
import type { AdapterOptions, WebSearch } from './types.js';

export type { SearchOptions, SearchResult, WebSearch } from './types.js';
export { createBraveSearch, createSearxngSearch, createTavilySearch };

export type WebSearchConfig = { provider: 'searxng' | 'brave' | 'tavily' | undefined; url?: string; apiKey?: string };

/**
 * The configured search provider, or null when web search is off or its settings are incomplete (the feature is
 * then simply not offered). For Brave and Tavily, `url` overrides the public API host (a proxy, or a test server).
 */
export function createWebSearch(config: WebSearchConfig, adapter: AdapterOptions = {}): WebSearch | null {
  switch (config.provider) {
    case 'searxng':
      return config.url ? createSearxngSearch({ baseUrl: config.url, ...adapter }) : null;
    case 'brave':
      return config.apiKey
        ? createBraveSearch({ apiKey: config.apiKey, ...(config.url && { baseUrl: config.url }), ...adapter })
        : null;
    case 'tavily':
      return config.apiKey
        ? createTavilySearch({ apiKey: config.apiKey, ...(config.url && { baseUrl: config.url }), ...adapter })
        : null;
    default:
      return null;
  }
}
