import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { outlook } from '../sites/outlook/index';

/** Outlook: instant replies and the Summarize button (see features/instant-reply and features/summaries). */
export default defineContentScript({
  matches: outlook.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: outlook,
      endpoint: () => 'mailMessage',
      summary: { kind: 'mail', site: outlook, match: outlook.match },
    });
  },
});
