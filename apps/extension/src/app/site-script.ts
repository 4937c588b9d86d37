import type { Settings } from '@parley/contract';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { startInstantReply, type ReplyEndpoint } from '../features/instant-reply/instant-reply';
import { startSummaries, type SummarySite } from '../features/summaries/summaries';
import type { ReplySite, ReplyTarget } from '../sites/shared/types';
import type { LivePart } from '../ui/on-site/live';
import { translator } from '../ui/on-site/strings';
import { runOnPage } from './page-script';

export interface SiteScript {
  site: ReplySite;
  endpoint: (target: ReplyTarget) => ReplyEndpoint;
  summary?: SummarySite;
}

const on = (settings: Settings, key: keyof Settings | undefined) => Boolean(key) && settings[key!] !== '0';

/**
 * A site's content script: instant replies and summaries, each while its setting for this site is on, plus what every
 * page gets.
 */
export async function runSiteScript(ctx: ContentScriptContext, script: SiteScript): Promise<void> {
  const { site, summary } = script;
  const parts: LivePart[] = [
    {
      on: (settings) => on(settings, site.instantReply),
      start: (language) => startInstantReply(ctx, { site, endpoint: script.endpoint, t: translator(language) }),
    },
  ];
  if (summary) {
    parts.push({
      on: (settings) => on(settings, site.summarize),
      start: (language) => startSummaries(ctx, summary, translator(language)),
    });
  }
  await runOnPage(ctx, parts);
}
