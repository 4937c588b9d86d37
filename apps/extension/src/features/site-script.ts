import type { Settings } from '@parley/contract';
import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { onMessages } from '../messaging/messaging';
import { startLive, type LivePart } from './content-ui/live';
import { startInstantReply, type ReplyEndpoint } from './instant-reply/instant-reply';
import type { PageReaderGlobal } from './page-reader/read-page';
import { quickAccessParts } from './quick-access/triggers';
import type { ReplySite, ReplyTarget } from './sites/shared/types';
import { startSummaries, type SummarySite } from './summaries/summaries';

export interface SiteScript {
  site: ReplySite;
  endpoint: (target: ReplyTarget) => ReplyEndpoint;
  summary?: SummarySite;
}

const on = (settings: Settings, key: keyof Settings | undefined) => Boolean(key) && settings[key!] !== '0';

/**
 * What every page gets, from whichever one content script runs there (the page script, or a site's own script, which
 * the page script leaves those sites to): the answer to "read this page" for the side panel's "Chat with this page",
 * quick access, and the page's own `parts`, all following the settings live (see content-ui/live). On a disabled
 * site nothing is mounted and the page is not read.
 */
export async function runOnPage(ctx: ContentScriptContext, parts: LivePart[] = []): Promise<void> {
  const reader = globalThis as PageReaderGlobal;
  let current: (() => { disabled: boolean }) | null = null;
  onMessages({
    READ_PAGE: async () => {
      if (!current || current().disabled) throw new Error('Parley is turned off on this site');
      if (!reader.__parleyReadPage) await import(/* @vite-ignore */ browser.runtime.getURL('/page-reader.js'));
      if (!reader.__parleyReadPage) throw new Error('The page reader did not load');
      return reader.__parleyReadPage();
    },
  });
  current = await startLive(ctx, [...parts, ...quickAccessParts(ctx)]);
}

/**
 * A site's content script: instant replies and summaries, each while its setting for this site is on, plus what every
 * page gets.
 */
export async function runSiteScript(ctx: ContentScriptContext, script: SiteScript): Promise<void> {
  const { site, summary } = script;
  const parts: LivePart[] = [
    {
      on: (settings) => on(settings, site.instantReply),
      start: (t) => startInstantReply(ctx, { site, endpoint: script.endpoint, t }),
    },
  ];
  if (summary) {
    parts.push({ on: (settings) => on(settings, site.summarize), start: (t) => startSummaries(ctx, summary, t) });
  }
  await runOnPage(ctx, parts);
}
