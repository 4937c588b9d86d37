import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { instagram } from '../sites/instagram/index';

/** Instagram: instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: instagram.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, { site: instagram, endpoint: () => 'comment' });
  },
});
