import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { loadTranslator } from './content-ui/strings';
import { startInstantReply, type ReplyEndpoint } from './instant-reply/instant-reply';
import { readStoredSettings } from './settings/settings-store';
import type { ReplySite, ReplyTarget } from './sites/shared/types';
import { startSummaries, type SummarySite } from './summaries/summaries';

export interface SiteScript {
  site: ReplySite;
  endpoint: (target: ReplyTarget) => ReplyEndpoint;
  summary?: SummarySite;
}

const on = (settings: Settings, key: keyof Settings | undefined) => Boolean(key) && settings[key!] !== '0';

/**
 * What a site's content script does after the disabled-site check: instant replies and summaries, each only when
 * its setting for this site is on. Nothing at all is added when both are off.
 */
export async function runSiteScript(ctx: ContentScriptContext, script: SiteScript): Promise<void> {
  const settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
  const reply = on(settings, script.site.instantReply);
  const summary = Boolean(script.summary) && on(settings, script.site.summarize);
  if (!reply && !summary) return;
  const t = await loadTranslator();
  if (reply) startInstantReply(ctx, { site: script.site, endpoint: script.endpoint, t });
  if (summary && script.summary) startSummaries(ctx, script.summary, t);
}
