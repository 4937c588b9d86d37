import { browser } from 'wxt/browser';
import type { Settings, SettingsUpdate } from '@parley/contract';

/**
 * Extension storage layout for settings (storage.local):
 * - `settings`: the full §3 settings object (DEFAULT_SETTINGS until the first sync);
 * - `settingsPending`: keys changed here and not yet accepted by the server.
 * Value-free imports only: content scripts read settings through this file and must not pull zod in.
 */
export const SETTINGS_KEY = 'settings';
export const PENDING_KEY = 'settingsPending';

/** The stored settings, or null before the background has written them (treat as defaults). */
export async function readStoredSettings(): Promise<Settings | null> {
  const got = await browser.storage.local.get(SETTINGS_KEY);
  const value = got[SETTINGS_KEY];
  return value && typeof value === 'object' ? (value as Settings) : null;
}

export function watchStoredSettings(listener: (settings: Settings) => void): () => void {
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    const change = changes[SETTINGS_KEY];
    if (area === 'local' && change?.newValue) listener(change.newValue as Settings);
  };
  browser.storage.onChanged.addListener(onChanged);
  return () => browser.storage.onChanged.removeListener(onChanged);
}

/** The settings store the sync logic works on (see sync.ts); backed by storage.local in the background. */
export type SettingsStore = {
  get(): Promise<Settings | null>;
  set(settings: Settings): Promise<void>;
  getPending(): Promise<SettingsUpdate>;
  setPending(pending: SettingsUpdate): Promise<void>;
};

export const browserSettingsStore: SettingsStore = {
  get: readStoredSettings,
  async set(settings) {
    await browser.storage.local.set({ [SETTINGS_KEY]: settings });
  },
  async getPending() {
    const got = await browser.storage.local.get(PENDING_KEY);
    return (got[PENDING_KEY] as SettingsUpdate | undefined) ?? {};
  },
  async setPending(pending) {
    if (Object.keys(pending).length === 0) await browser.storage.local.remove(PENDING_KEY);
    else await browser.storage.local.set({ [PENDING_KEY]: pending });
  },
};
