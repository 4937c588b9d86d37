import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startShortcuts } from '../features/shortcuts/expand';
import type { ShortcutsGlobal } from '../features/shortcuts/part';

/** Imported by a page's content script while the person has shortcuts (web-accessible, see wxt.config.ts). */
export default defineUnlistedScript(() => {
  (globalThis as ShortcutsGlobal).__parleyShortcuts = { start: startShortcuts };
});
