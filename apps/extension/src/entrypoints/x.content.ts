import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../features/site-script';
import { isDisabledHere } from '../features/site-guard';
import { x } from '../features/sites/x/index';

/** X (Twitter): instant replies (see features/instant-reply). */
export default defineContentScript({
  matches: x.matches,
  runAt: 'document_idle',
  async main(ctx) {
    if (await isDisabledHere()) return;
    await runSiteScript(ctx, { site: x, endpoint: () => 'comment' });
  },
});
