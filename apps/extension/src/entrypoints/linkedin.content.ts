import { defineContentScript } from 'wxt/utils/define-content-script';
import { runSiteScript } from '../app/site-script';
import { linkedinEngagePart } from '../features/linkedin-engage/part';
import { linkedin } from '../sites/linkedin/index';

/** LinkedIn: instant replies (see features/instant-reply) and engagement (features/linkedin-engage). */
export default defineContentScript({
  matches: linkedin.matches,
  runAt: 'document_idle',
  async main(ctx) {
    await runSiteScript(ctx, {
      site: linkedin,
      endpoint: (target) => (target.kind === 'message' ? 'message' : 'comment'),
      parts: (context) => [linkedinEngagePart(context)],
    });
  },
});
