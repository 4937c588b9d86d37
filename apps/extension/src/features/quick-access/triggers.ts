import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { isParleyHost } from '../../ui/on-site/hosts';
import type { LivePart } from '../../ui/on-site/live';
import { listenTrusted } from '../../ui/on-site/trusted';
import { matchesShortcut, type QuickAccessGlobal } from './shortcut';

/**
 * What every page carries of quick access: the listeners for a text selection (mini menu) and for the shortcut (the
 * box). The UI itself (`quick-access.js`) is imported into this isolated world on first use only.
 */
const quick = globalThis as QuickAccessGlobal;

async function load() {
  if (!quick.__parleyQuickAccess) await import(/* @vite-ignore */ browser.runtime.getURL('/quick-access.js'));
  return quick.__parleyQuickAccess;
}

function selected() {
  const active = document.activeElement as HTMLInputElement | null;
  if (active && 'selectionStart' in active && active.selectionStart !== active.selectionEnd) return true;
  return Boolean(document.getSelection()?.toString().trim());
}

/**
 * Adds listeners to the document for a person's own input only (a page's synthetic mouseup after selecting text, or
 * its synthetic shortcut, opens nothing; see ui/on-site/trusted.ts) and returns the function that removes them (and closes
 * what is open).
 */
function listen(events: Array<[string, (event: Event) => void]>, onStop?: () => void): () => void {
  const stops = events.map(([type, handler]) => listenTrusted(document, type, handler));
  return () => {
    for (const stop of stops) stop();
    onStop?.();
  };
}

export function quickAccessParts(ctx: ContentScriptContext): LivePart[] {
  const menu: LivePart = {
    on: (settings) => settings.miniMenu !== '0',
    start: (language) => {
      let timer: number | undefined;
      const onSelect = (event: Event) => {
        if (!ctx.isValid || isParleyHost(event.target)) return;
        if (event.type === 'keyup' && !(event as KeyboardEvent).shiftKey) return;
        // Once the clicks that made the selection have settled (a double or triple click is one selection).
        clearTimeout(timer);
        timer = ctx.setTimeout(() => {
          if (selected()) void load().then((qa) => qa?.showMenu(ctx, language));
        }, 250);
      };
      return listen(
        [
          ['mouseup', onSelect],
          ['keyup', onSelect],
        ],
        () => {
          clearTimeout(timer);
          quick.__parleyQuickAccess?.close('menu');
        },
      );
    },
  };
  const box: LivePart = {
    on: (settings) => settings.quickAccess !== '0',
    uses: (settings) => settings.quickAccessShortcut,
    start: (language, settings) => {
      const shortcut = settings.quickAccessShortcut || DEFAULT_SETTINGS.quickAccessShortcut;
      const onKey = (event: Event) => {
        if (!ctx.isValid || !matchesShortcut(shortcut, event as KeyboardEvent)) return;
        event.preventDefault();
        void load().then((qa) => qa?.openBox(ctx, language));
      };
      return listen([['keydown', onKey]], () => quick.__parleyQuickAccess?.close('box'));
    },
  };
  return [menu, box];
}
