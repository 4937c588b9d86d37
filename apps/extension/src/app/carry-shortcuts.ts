import { startShortcuts } from '../features/shortcuts/expand';
import type { ShortcutsGlobal } from '../features/shortcuts/part';

/**
 * For the scripts of the sites where people write (the seven reply sites, the search pages): the shortcut expansion
 * code goes in the script itself, where every other page imports it (shortcuts.js) only for a person who has
 * shortcuts. Importing a module costs a page load more than the code's 3.6 KB do there (docs/benchmarks.md).
 */
export function carryShortcuts(): void {
  (globalThis as ShortcutsGlobal).__parleyShortcuts ??= { start: startShortcuts };
}
