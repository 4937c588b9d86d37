/**
 * Kept tiny: the page content script imports this on every page. Parses shortcuts such as 'Ctrl+Shift+K' (Cmd/Meta,
 * Alt/Option and Shift also understood) and tells whether a keydown is that shortcut.
 */
export function matchesShortcut(shortcut: string, event: KeyboardEvent): boolean {
  const parts = shortcut
    .toLowerCase()
    .split('+')
    .map((p) => p.trim());
  const key = parts.pop();
  if (!key) return false;
  const has = (...names: string[]) => parts.some((p) => names.includes(p));
  if (event.ctrlKey !== has('ctrl', 'control')) return false;
  if (event.metaKey !== has('cmd', 'meta', 'command')) return false;
  if (event.altKey !== has('alt', 'option')) return false;
  if (event.shiftKey !== has('shift')) return false;
  const code = event.code.toLowerCase();
  return event.key.toLowerCase() === key || code === `key${key}` || code === `digit${key}`;
}

/** What the page content script calls in the lazily imported quick-access code. */
export type QuickAccessGlobal = {
  __parleyQuickAccess?: {
    /** `language`: the on-site UI's (the catalogues load with the quick-access code, not on every page). */
    showMenu(ctx: unknown, language: string): void;
    openBox(ctx: unknown, language: string): void;
    /** Closes the menu or the box if that is what is open (its setting was just turned off). */
    close(kind: 'menu' | 'box'): void;
  };
};
