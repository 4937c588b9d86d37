import { browser } from 'wxt/browser';
import type { Signature, Template } from '@parley/contract';
import { DEFAULT_SHORTCUT_TRIGGER } from '@parley/contract/values';

/**
 * storage.local layout for the person's templates, signatures and shortcuts (fetched by the background once signed in,
 * cleared on sign-out; see features/templates/sync.ts):
 * - `templates`: the reply templates and signatures, read by the mail and message sites' UI through GET_TEMPLATES;
 * - `shortcuts`: only keys and texts, small, read with the settings by every page's script, so the shortcut listener
 *   is attached only while there is at least one;
 * - `localSettings`: settings of this browser only (not §3 settings, not synced): the shortcut trigger.
 * Value-free imports only (content scripts read these).
 */
export const TEMPLATES_KEY = 'templates';
export const SHORTCUTS_KEY = 'shortcuts';
export const LOCAL_SETTINGS_KEY = 'localSettings';

export type TemplateItem = Pick<Template, 'id' | 'kind' | 'title' | 'body' | 'language'>;
export type SignatureItem = Pick<Signature, 'id' | 'name' | 'html' | 'defaultFor'>;
export type ShortcutItem = { key: string; text: string };

/** What was fetched for whom and when (ms since the epoch). */
type Fetched = { userId: string | null; fetchedAt: number };
export type TemplateLibrary = Fetched & { templates: TemplateItem[]; signatures: SignatureItem[] };
export type ShortcutList = Fetched & { items: ShortcutItem[] };
export type LocalSettings = { shortcutTrigger: string };

/** How long fetched templates count as fresh: a content script's ask refetches at most this often. */
export const FRESH_FOR_MS = 5 * 60_000;

export const EMPTY_LIBRARY: TemplateLibrary = { userId: null, fetchedAt: 0, templates: [], signatures: [] };
export const DEFAULT_LOCAL_SETTINGS: LocalSettings = { shortcutTrigger: DEFAULT_SHORTCUT_TRIGGER };

/** A trigger is one to three characters that are neither letters, digits nor spaces (so it never starts a word). */
export const isValidTrigger = (value: unknown): value is string =>
  typeof value === 'string' && /^[^\p{L}\p{N}\s]{1,3}$/u.test(value);

export const libraryOf = (value: unknown): TemplateLibrary | null =>
  value && typeof value === 'object' && Array.isArray((value as TemplateLibrary).templates)
    ? (value as TemplateLibrary)
    : null;

export const shortcutListOf = (value: unknown): ShortcutList | null =>
  value && typeof value === 'object' && Array.isArray((value as ShortcutList).items) ? (value as ShortcutList) : null;

export const localSettingsOf = (value: unknown): LocalSettings => {
  const trigger = (value as Partial<LocalSettings> | undefined)?.shortcutTrigger;
  return { shortcutTrigger: isValidTrigger(trigger) ? trigger : DEFAULT_SHORTCUT_TRIGGER };
};

/** The store the background's sync works on. */
export type TemplatesStore = {
  getLibrary(): Promise<TemplateLibrary | null>;
  getShortcuts(): Promise<ShortcutList | null>;
  set(library: TemplateLibrary, shortcuts: ShortcutList): Promise<void>;
  clear(): Promise<void>;
};

export const browserTemplatesStore: TemplatesStore = {
  async getLibrary() {
    return libraryOf((await browser.storage.local.get(TEMPLATES_KEY))[TEMPLATES_KEY]);
  },
  async getShortcuts() {
    return shortcutListOf((await browser.storage.local.get(SHORTCUTS_KEY))[SHORTCUTS_KEY]);
  },
  async set(library, shortcuts) {
    await browser.storage.local.set({ [TEMPLATES_KEY]: library, [SHORTCUTS_KEY]: shortcuts });
  },
  async clear() {
    await browser.storage.local.remove([TEMPLATES_KEY, SHORTCUTS_KEY]);
  },
};

export async function readLocalSettings(): Promise<LocalSettings> {
  return localSettingsOf((await browser.storage.local.get(LOCAL_SETTINGS_KEY))[LOCAL_SETTINGS_KEY]);
}

/** From our own pages (the options page): kept in this browser only. */
export async function setShortcutTrigger(trigger: string): Promise<LocalSettings> {
  if (!isValidTrigger(trigger)) throw new Error('invalid trigger');
  const next = { ...(await readLocalSettings()), shortcutTrigger: trigger };
  await browser.storage.local.set({ [LOCAL_SETTINGS_KEY]: next });
  return next;
}

/** The stored shortcuts and this browser's trigger, now and on every change (for our pages). */
export function watchShortcuts(listener: (shortcuts: ShortcutList | null, local: LocalSettings) => void): () => void {
  let shortcuts: ShortcutList | null = null;
  let local = DEFAULT_LOCAL_SETTINGS;
  void browser.storage.local.get([SHORTCUTS_KEY, LOCAL_SETTINGS_KEY]).then((got) => {
    shortcuts = shortcutListOf(got[SHORTCUTS_KEY]);
    local = localSettingsOf(got[LOCAL_SETTINGS_KEY]);
    listener(shortcuts, local);
  });
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local' || !(SHORTCUTS_KEY in changes || LOCAL_SETTINGS_KEY in changes)) return;
    if (SHORTCUTS_KEY in changes) shortcuts = shortcutListOf(changes[SHORTCUTS_KEY]!.newValue);
    if (LOCAL_SETTINGS_KEY in changes) local = localSettingsOf(changes[LOCAL_SETTINGS_KEY]!.newValue);
    listener(shortcuts, local);
  };
  browser.storage.onChanged.addListener(onChanged);
  return () => browser.storage.onChanged.removeListener(onChanged);
}
