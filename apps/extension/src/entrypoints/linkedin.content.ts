import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { linkedin } from '../sites/linkedin/index';

/** LinkedIn: instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: linkedin.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: linkedin,
      endpoint: (target) => (target.kind === 'message' ? 'message' : 'comment'),
    });
  },
});
