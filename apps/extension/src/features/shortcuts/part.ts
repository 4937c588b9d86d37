import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { sendMessage } from '../../platform/messaging/messaging';
import { FRESH_FOR_MS, type ShortcutItem } from '../../platform/storage/templates-store';
import type { LivePart } from '../../ui/on-site/live';
import { listenTrusted } from '../../ui/on-site/trusted';

/** What the lazily imported shortcuts.js puts in this isolated world (see entrypoints/shortcuts.ts). */
export type ShortcutsGlobal = {
  __parleyShortcuts?: { start(options: { shortcuts: ShortcutItem[]; trigger: string }): () => void };
};

const global = globalThis as ShortcutsGlobal;

async function load() {
  if (!global.__parleyShortcuts) await import(/* @vite-ignore */ browser.runtime.getURL('/shortcuts.js'));
  return global.__parleyShortcuts;
}

/** At the latest, how long after the page script starts the expansion code is imported. */
const IDLE_WAIT_MS = 3000;

/** Where a person types: a textarea, a text input or an editable element. */
function isTextTarget(target: EventTarget | undefined): boolean {
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLInputElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/**
 * What every page's script carries of shortcuts: nothing but this. While the person is signed in and has at least one
 * shortcut, the expansion code (shortcuts.js, web-accessible) is imported when the page is idle, or sooner when they
 * go to type in a text field (focus or a key there), and its keydown listener attached; without shortcuts, signed
 * out or on a disabled site, there is no listener at all. A changed trigger or list restarts it. When the stored
 * shortcuts are older than a few minutes, the background is asked to fetch them again (once per page load, never per
 * keystroke).
 */
export function shortcutsPart(ctx: ContentScriptContext): LivePart {
  return {
    on: (_settings, state) => state.signedIn && (state.shortcuts?.items.length ?? 0) > 0,
    uses: (_settings, state) => [state.shortcutTrigger, state.shortcuts?.items],
    start: (_language, _settings, state) => {
      const options = { shortcuts: state.shortcuts?.items ?? [], trigger: state.shortcutTrigger };
      let stop: () => void = () => undefined;
      let stopped = false;
      const begin = () => {
        if (!stopped && ctx.isValid && global.__parleyShortcuts) stop = global.__parleyShortcuts.start(options);
      };
      if (global.__parleyShortcuts) begin();
      else {
        // Imported once the page is idle, or as soon as the person goes to type in a text field, if that is sooner.
        const importNow = () => {
          stopWaiting();
          load().then(begin, () => undefined);
        };
        const ready = (event: Event) => {
          if (isTextTarget(event.composedPath()[0])) importNow();
        };
        const waiting = [
          listenTrusted(document, 'focusin', ready, true),
          listenTrusted(document, 'keydown', ready, true),
        ];
        const idle = ctx.requestIdleCallback(importNow, { timeout: IDLE_WAIT_MS });
        const stopWaiting = () => {
          cancelIdleCallback(idle);
          waiting.forEach((remove) => remove());
        };
        stop = stopWaiting;
      }
      if (Date.now() - (state.shortcuts?.fetchedAt ?? 0) > FRESH_FOR_MS) {
        sendMessage('REFRESH_TEMPLATES').catch(() => undefined);
      }
      return () => {
        stopped = true;
        stop();
      };
    },
  };
}
