import type { Settings } from '@parley/contract';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { startInstantReply, type ReplyEndpoint } from '../features/instant-reply/instant-reply';
import { startSignatures } from '../features/signatures/signatures';
import { startSummaries, type SummarySite } from '../features/summaries/summaries';
import { sendMessage } from '../platform/messaging/messaging';
import type { MailEditorSite, ReplySite, ReplyTarget } from '../sites/shared/types';
import type { LivePart } from '../ui/on-site/live';
import { translator } from '../ui/on-site/strings';
import { carryShortcuts } from './carry-shortcuts';
import { runOnPage } from './page-script';

export interface SiteScript {
  site: ReplySite;
  endpoint: (target: ReplyTarget) => ReplyEndpoint;
  summary?: SummarySite;
  /** Gmail and Outlook: the person's default signature goes into their reply and compose boxes. */
  mailEditor?: MailEditorSite;
  /** What else this site's script runs (LinkedIn: engagement on its feed, search and activity pages). */
  parts?: (ctx: ContentScriptContext) => LivePart[];
}

const on = (settings: Settings, key: keyof Settings | undefined) => Boolean(key) && settings[key!] !== '0';

/**
 * A site's content script: instant replies and summaries, each while its setting for this site is on, signatures on
 * the mail sites while signed in, plus what every page gets.
 */
export async function runSiteScript(ctx: ContentScriptContext, script: SiteScript): Promise<void> {
  carryShortcuts();
  const { site, summary, mailEditor } = script;
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
  if (mailEditor) {
    parts.push({
      on: (_settings, state) => state.signedIn,
      start: () => startSignatures(ctx, { site: { ...site, ...mailEditor }, load: () => sendMessage('GET_TEMPLATES') }),
    });
  }
  parts.push(...(script.parts?.(ctx) ?? []));
  await runOnPage(ctx, parts);
}
