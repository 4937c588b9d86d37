export type SearchResult = { title: string; url: string; snippet: string };
export type SearchOptions = { limit?: number; language?: string; signal?: AbortSignal };

export interface WebSearch {
  name: string;
  search(query: string, opts?: SearchOptions): Promise<SearchResult[]>;
}

/** Shared by every adapter: how long the operator's search provider may take, and the fetch to reach it. */
export type AdapterOptions = { timeoutMs?: number; fetch?: typeof globalThis.fetch };
