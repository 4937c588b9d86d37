import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { facebook } from '../sites/facebook/index';

/** Facebook: instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: facebook.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, { site: facebook, endpoint: () => 'comment' });
  },
});
