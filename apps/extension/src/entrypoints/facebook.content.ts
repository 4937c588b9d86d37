import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../features/site-script';
import { isDisabledHere } from '../features/site-guard';
import { facebook } from '../features/sites/facebook/index';

/** Facebook: instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: facebook.matches,
  runAt: 'document_idle',
  async main(ctx) {
    if (await isDisabledHere()) return;
    await runSiteScript(ctx, { site: facebook, endpoint: () => 'comment' });
  },
});
