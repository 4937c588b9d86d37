import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { gmail } from '../sites/gmail/index';

/** Gmail: instant replies and the Summarize button (see features/instant-reply and features/summaries). */
export default defineContentScript({
  matches: gmail.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: gmail,
      endpoint: () => 'mailMessage',
      summary: { kind: 'mail', site: gmail, match: gmail.match },
    });
  },
});
