/**
 * Search result pages: the query, the results (as grounding for the answer) and where the AI answer card goes —
 * the side column beside the results when the engine has one, else a new column next to them.
 */
import { all, first } from '../shared/dom.js';
import { visibleText } from '../shared/text.js';
import type { SummaryAnchor } from '../shared/types.js';
import type { SearchEngine } from './search.match.js';

const ENGINES: Record<
  SearchEngine,
  {
    box: string;
    columns: Array<[string, SummaryAnchor['placement']]>;
    result: string;
    title: string;
    link: string;
    snippet: string;
  }
> = {
  google: {
    box: 'textarea[name="q"], input[name="q"]',
    columns: [
      ['#rhs', 'prepend'],
      ['#rcnt', 'append'],
      ['#center_col', 'before'],
    ],
    result: '#rso div.g',
    title: 'h3',
    link: 'a[href]',
    snippet: '.VwiC3b, [data-sncf]',
  },
  bing: {
    box: '#sb_form_q',
    columns: [
      ['#b_context', 'prepend'],
      ['#b_content', 'append'],
    ],
    result: '#b_results > li.b_algo',
    title: 'h2',
    link: 'h2 a[href]',
    snippet: '.b_caption p, .b_caption',
  },
  duckduckgo: {
    box: '#search_form_input, input[name="q"]',
    columns: [
      ['section[data-testid="sidebar"], [data-area="sidebar"]', 'prepend'],
      ['section[data-testid="mainline"], [data-area="mainline"]', 'after'],
    ],
    result: 'article[data-testid="result"]',
    title: 'h2',
    link: '[data-testid="result-title-a"], h2 a[href], a[href]',
    snippet: '[data-result="snippet"]',
  },
};

const ORDER: SearchEngine[] = ['google', 'bing', 'duckduckgo'];

export function readQuery(url: URL, root: ParentNode, engine?: SearchEngine): string | null {
  const fromUrl = url.searchParams.get('q')?.trim();
  if (fromUrl) return fromUrl;
  for (const name of engine ? [engine] : ORDER) {
    const box = first<HTMLInputElement | HTMLTextAreaElement>(root, ENGINES[name].box);
    const value = box?.value.trim();
    if (value) return value;
  }
  return null;
}

export function findResultsColumn(root: ParentNode, engine?: SearchEngine): SummaryAnchor | null {
  for (const name of engine ? [engine] : ORDER) {
    for (const [selector, placement] of ENGINES[name].columns) {
      const anchor = first(root, selector);
      if (anchor) return { anchor, placement };
    }
  }
  return null;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** The first organic results, as data for the answer. */
export function readResults(root: ParentNode, max = 5, engine?: SearchEngine): SearchResult[] {
  for (const name of engine ? [engine] : ORDER) {
    const e = ENGINES[name];
    const results = all(root, e.result)
      .map((item) => ({
        title: visibleText(first(item, e.title)),
        url: first<HTMLAnchorElement>(item, e.link)?.href ?? '',
        snippet: visibleText(first(item, e.snippet)),
      }))
      .filter((r) => r.title && r.url.startsWith('http'))
      .slice(0, max);
    if (results.length) return results;
  }
  return [];
}
