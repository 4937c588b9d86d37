import { decodeEntities } from '../web/entities.js';
import { asRecord } from './request.js';
import type { SearchResult } from './types.js';

const MAX_SNIPPET = 500;
const MAX_TITLE = 300;

/** Providers send highlighted HTML fragments (`<strong>`, `&#x27;`); the model and the UI want plain text. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return decodeEntities(value.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Maps raw provider items to results: http(s) links only, first occurrence of each URL, bounded text, at most `limit`. */
export function normalizeResults(
  items: unknown[],
  fields: { title: string; url: string; snippet: string },
  limit: number,
): SearchResult[] {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const item of items.map(asRecord)) {
    const url = httpUrl(item[fields.url]);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const title = cut(plainText(item[fields.title]), MAX_TITLE) || new URL(url).hostname;
    results.push({ title, url, snippet: cut(plainText(item[fields.snippet]), MAX_SNIPPET) });
    if (results.length === limit) break;
  }
  return results;
}
