import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import {
  isPresencePing,
  isTemplatesChanged,
  PAGE_MESSAGES,
  readTemplateChosen,
  readUpdateToken,
  shouldTellWebApp,
} from '../features/web-bridge/bridge';
import { sendMessage } from '../platform/messaging/messaging';
import { watchSession } from '../platform/storage/session-store';
import { listenTrusted } from '../ui/on-site/trusted';

/**
 * The sign-in channel with the web app. `matches` is set at build time to exactly PARLEY_WEB_URL's origin
 * (wxt.config.ts); the origin is checked again here and by the background. It injects no UI, so it also runs on a
 * host listed in Disabled sites (the web app itself), which would otherwise lock the person out of signing in.
 */
export default defineContentScript({
  matches: ['http://localhost/*'],
  runAt: 'document_start',
  main() {
    const webOrigin = import.meta.env.PARLEY_WEB_URL;
    if (location.origin !== webOrigin || window.top !== window) return;

    // window.postMessage's events are trusted; a MessageEvent a script made up and dispatched (with any origin and
    // source it likes) is not.
    listenTrusted(window, 'message', (event) => {
      const update = readUpdateToken(event, window, webOrigin);
      if (update) {
        sendMessage('SET_COOKIE', update).catch(() => undefined);
        return;
      }
      if (isPresencePing(event, window, webOrigin)) {
        const { version } = browser.runtime.getManifest();
        window.postMessage({ type: PAGE_MESSAGES.present, version }, location.origin);
        return;
      }
      if (isTemplatesChanged(event, window, webOrigin)) {
        sendMessage('TEMPLATES_CHANGED').catch(() => undefined);
        return;
      }
      // The template picker in a window the extension opened; the background takes it only from that window's tab.
      const template = readTemplateChosen(event, window, webOrigin);
      if (template) {
        sendMessage('TEMPLATE_CHOSEN', { template })
          .then(
            ({ delivered }) => delivered,
            () => false,
          )
          .then((delivered) =>
            window.postMessage({ type: PAGE_MESSAGES.templateReceived, delivered }, location.origin),
          );
      }
    });

    watchSession((next, previous) => {
      if (shouldTellWebApp(next, previous)) {
        window.postMessage({ type: PAGE_MESSAGES.loggedOut, reason: next.endReason }, location.origin);
      }
    });
  },
});
