import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { closeQuickAccess, openBox, showMenu } from '../features/quick-access/quick-access';
import type { QuickAccessGlobal } from '../features/quick-access/shortcut';
import { translator } from '../ui/on-site/strings';

/** Imported by the page content script on the first selection or shortcut (web-accessible, see wxt.config.ts). */
export default defineUnlistedScript(() => {
  (globalThis as QuickAccessGlobal).__parleyQuickAccess = {
    showMenu: (ctx, language) => void showMenu(ctx as ContentScriptContext, translator(language)),
    openBox: (ctx, language) => void openBox(ctx as ContentScriptContext, translator(language)),
    close: closeQuickAccess,
  };
});
