import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { outlook } from '../sites/outlook/index';

/**
 * Outlook: instant replies, the Summarize button and signatures (see features/instant-reply, features/summaries and
 * features/signatures).
 */
export default defineContentScript({
  matches: outlook.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: outlook,
      endpoint: () => 'mailMessage',
      summary: { kind: 'mail', site: outlook, match: outlook.match },
      mailEditor: outlook,
    });
  },
});
