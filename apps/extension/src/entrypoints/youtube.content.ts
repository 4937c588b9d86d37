import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { youtube } from '../sites/youtube/index';

/** Youtube: instant replies and the Summarize button (see features/instant-reply and features/summaries). */
export default defineContentScript({
  matches: youtube.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: youtube,
      endpoint: () => 'comment',
      summary: { kind: 'video', site: youtube, match: youtube.match },
    });
  },
});
