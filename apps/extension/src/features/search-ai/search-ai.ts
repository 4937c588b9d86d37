import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall } from '../../platform/messaging/messaging';
import { readStoredSettings } from '../../platform/storage/settings-store';
import { search, type SearchResult } from '../../sites/search/index';
import { copyButton } from '../../ui/on-site/copy';
import { watchPage } from '../../ui/on-site/observe';
import { el, errorMessage, mountShadowUi, showText, styleSheet } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';

/** What the summary endpoint gets: the question and the top results, numbered, as data. */
export function searchPrompt(query: string, results: SearchResult[]): string {
  const lines = results.map((r, i) => `[${i + 1}] ${r.title} — ${r.url}\n${r.snippet}`);
  return `Question: ${query}\n\nResults:\n${lines.join('\n\n')}`;
}

const CARD_CSS = `
.parley.card { display: block; margin: 0 0 16px; padding: 12px; max-width: 420px; border: 1px solid #c9ced6; border-radius: 10px; background: #fff; }
.parley.card [hidden] { display: none; }
.parley.card ol { margin: 4px 0 0; padding-left: 22px; }
.parley.card a { color: #3b5bdb; text-decoration: none; overflow-wrap: anywhere; }
.parley.card a:hover { text-decoration: underline; }
`;

/**
 * On a search engine's web results page: a card beside the results with the top results as sources (numbered links)
 * and a button that answers the query from them. The answer is asked for only on that click (each answer spends a
 * credit, and most searches need none; see docs/decisions). The results are data for the model, never instructions.
 */
export function startSearchCard(ctx: ContentScriptContext, t: Translate): () => void {
  let mounted: { query: string; host?: Element; remove?: () => void } | null = null;
  const scan = () => {
    const url = new URL(location.href);
    const engine = search.engineOf(url);
    const query = engine ? search.readQuery(url, document, engine) : null;
    if (!engine || !query) return;
    if (mounted && mounted.query === query && (!mounted.host || mounted.host.isConnected)) return;
    const results = search.readResults(document, 5, engine);
    const column = search.findResultsColumn(document, engine);
    if (!results.length || !column) return;
    mounted?.remove?.();
    const entry: { query: string; host?: Element; remove?: () => void } = { query };
    mounted = entry;
    void mountShadowUi(ctx, column.anchor, column.placement, (container) =>
      buildCard(container, query, results, t),
    ).then(
      (ui) => {
        entry.host = ui.shadowHost;
        entry.remove = () => ui.remove();
        if (mounted !== entry) ui.remove();
      },
      () => {
        if (mounted === entry) mounted = null;
      },
    );
  };
  const unwatch = watchPage(ctx, scan);
  return () => {
    unwatch();
    mounted?.remove?.();
    mounted = null;
  };
}

function buildCard(container: HTMLElement, query: string, results: SearchResult[], t: Translate) {
  const card = el('div', 'parley card');
  card.dataset.parley = 'search-card';
  const body = el('p', 'text');
  body.dataset.parley = 'search-answer';
  body.hidden = true;
  const ask = el('button', 'primary', t('searchAsk'));
  ask.type = 'button';
  ask.dataset.parley = 'search-ask';
  let answer = '';
  // Shown with the answer.
  const copy = copyButton(t, () => answer);
  copy.hidden = true;
  const list = el('ol');
  for (const result of results) {
    const item = el('li');
    const link = el('a', '', result.title);
    link.href = result.url;
    link.rel = 'noopener noreferrer';
    item.append(link);
    list.append(item);
  }
  card.append(el('p', 'title', t('searchTitle')), body, ask, copy, el('p', 'title', t('sources')), list);
  container.append(styleSheet(CARD_CSS), card);
  listenTrusted(ask, 'click', async () => {
    ask.disabled = true;
    body.hidden = false;
    body.classList.remove('error');
    showText(body, t('thinking'));
    try {
      const settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
      const { data } = await apiCall('summary', {
        body: { kind: 'page', text: searchPrompt(query, results), language: settings.language },
      });
      answer = data.text;
      showText(body, answer);
      ask.remove();
      copy.hidden = false;
    } catch (error) {
      body.classList.add('error');
      showText(body, errorMessage(error, t('searchFailed')));
      ask.disabled = false;
    }
  });
}
