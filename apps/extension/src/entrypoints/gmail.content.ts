import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { gmail } from '../sites/gmail/index';

/**
 * Gmail: instant replies, the Summarize button and signatures (see features/instant-reply, features/summaries and
 * features/signatures).
 */
export default defineContentScript({
  matches: gmail.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: gmail,
      endpoint: () => 'mailMessage',
      summary: { kind: 'mail', site: gmail, match: gmail.match },
      mailEditor: gmail,
    });
  },
});
