import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { LivePart, Stop } from '../../ui/on-site/live';

/** What the lazily imported linkedin-engage.js puts in this isolated world (see entrypoints/linkedin-engage.ts). */
export type LinkedinEngageGlobal = {
  __parleyLinkedinEngage?: { start(ctx: ContentScriptContext, language: string): Stop };
};

const global = globalThis as LinkedinEngageGlobal;

/**
 * The pages LinkedIn engagement works on: posts (the feed, a content search, a profile's or company's activity) and
 * the person's numbers (a profile, the dashboard, analytics, the SSI page). Checked on the address only, so every
 * other LinkedIn page (messaging, jobs…) imports nothing.
 */
export const ENGAGE_PATHS =
  /^\/(feed\/?$|search\/results\/content\/?$|(in|company)\/[^/]+\/(recent-activity|posts)(\/|$)|in\/[^/]+\/?$|dashboard\/?$|analytics\/|sales\/ssi\/?$)/;

/** How often the address is looked at: LinkedIn moves between its pages without loading a new document. */
const ADDRESS_EVERY_MS = 1_000;

/**
 * What LinkedIn's content script carries of the engagement: nothing but this. While the person is signed in, the first
 * time the address is one of ENGAGE_PATHS the engagement code (linkedin-engage.js, web-accessible) is imported and
 * started; it follows the page and its address from then on. Signed out, or on a disabled site, nothing is imported.
 */
export function linkedinEngagePart(ctx: ContentScriptContext): LivePart {
  return {
    on: (_settings, state) => state.signedIn,
    start: (language) => {
      let stop: Stop | null = null;
      let stopped = false;
      let loading = false;
      const check = () => {
        if (stop || loading || stopped || !ENGAGE_PATHS.test(location.pathname)) return;
        loading = true;
        const loaded = global.__parleyLinkedinEngage
          ? Promise.resolve()
          : import(/* @vite-ignore */ browser.runtime.getURL('/linkedin-engage.js'));
        loaded.then(
          () => {
            loading = false;
            if (!stopped && ctx.isValid && global.__parleyLinkedinEngage) {
              stop = global.__parleyLinkedinEngage.start(ctx, language);
              clearInterval(timer);
            }
          },
          () => {
            loading = false;
          },
        );
      };
      const timer = ctx.setInterval(check, ADDRESS_EVERY_MS);
      check();
      return () => {
        stopped = true;
        clearInterval(timer);
        stop?.();
      };
    },
  };
}
