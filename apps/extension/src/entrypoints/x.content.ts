import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { x } from '../sites/x/index';

/** X (Twitter): instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: x.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, { site: x, endpoint: () => 'comment' });
  },
});
