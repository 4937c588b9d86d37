import { defineContentScript } from 'wxt/utils/define-content-script';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { PageReaderGlobal } from '../features/page-reader/read-page';
import { matchesShortcut, type QuickAccessGlobal } from '../features/quick-access/shortcut';
import { readStoredSettings } from '../features/settings/settings-store';
import { isDisabledHere } from '../features/site-guard';
import { browser } from 'wxt/browser';
import { onMessages } from '../messaging/messaging';

/**
 * The small script every web page gets (unless its site is disabled): it answers "read this page" for the side
 * panel's "Chat with this page", and watches for a text selection (mini menu) and the quick-access shortcut. Readability
 * and the quick-access UI are not in here: each is imported into this isolated world on first use.
 */
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  async main(ctx) {
    if (await isDisabledHere()) return;
    const reader = globalThis as PageReaderGlobal;
    onMessages({
      READ_PAGE: async () => {
        if (!reader.__parleyReadPage) await import(/* @vite-ignore */ browser.runtime.getURL('/page-reader.js'));
        if (!reader.__parleyReadPage) throw new Error('The page reader did not load');
        return reader.__parleyReadPage();
      },
    });

    const settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
    const menu = settings.miniMenu !== '0';
    const box = settings.quickAccess !== '0';
    if (!menu && !box) return;
    const quick = globalThis as QuickAccessGlobal;
    const load = async () => {
      if (!quick.__parleyQuickAccess) await import(/* @vite-ignore */ browser.runtime.getURL('/quick-access.js'));
      return quick.__parleyQuickAccess;
    };
    const ours = (target: EventTarget | null) => target instanceof Element && target.localName === 'parley-quick';
    const selected = () => {
      const active = document.activeElement as HTMLInputElement | null;
      if (active && 'selectionStart' in active && active.selectionStart !== active.selectionEnd) return true;
      return Boolean(document.getSelection()?.toString().trim());
    };
    if (menu) {
      let timer: number | undefined;
      const onSelect = (event: Event) => {
        if (ours(event.target)) return;
        // Once the clicks that made the selection have settled (a double or triple click is one selection).
        clearTimeout(timer);
        timer = ctx.setTimeout(() => {
          if (selected()) void load().then((qa) => qa?.showMenu(ctx));
        }, 250);
      };
      ctx.addEventListener(document, 'mouseup', onSelect);
      ctx.addEventListener(document, 'keyup', (event) => {
        if (event.shiftKey) onSelect(event);
      });
    }
    if (box) {
      const shortcut = settings.quickAccessShortcut || DEFAULT_SETTINGS.quickAccessShortcut;
      ctx.addEventListener(document, 'keydown', (event) => {
        if (!matchesShortcut(shortcut, event)) return;
        event.preventDefault();
        void load().then((qa) => qa?.openBox(ctx));
      });
    }
  },
});
