import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { WEB_ORIGIN } from '../config';
import { startEngage } from '../features/linkedin-engage/engage';
import type { LinkedinEngageGlobal } from '../features/linkedin-engage/part';
import { engageTranslator } from '../features/linkedin-engage/strings';
import { translator } from '../ui/on-site/strings';

/** Imported by LinkedIn's content script on the pages engagement works on (web-accessible, see wxt.config.ts). */
export default defineUnlistedScript(() => {
  (globalThis as LinkedinEngageGlobal).__parleyLinkedinEngage = {
    start: (ctx, language) =>
      startEngage(ctx as ContentScriptContext, {
        t: engageTranslator(language),
        tSite: translator(language),
        webOrigin: WEB_ORIGIN,
      }),
  };
});
