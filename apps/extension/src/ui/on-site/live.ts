import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { SESSION_KEY, type SessionState } from '../../platform/storage/session-store';
import { SETTINGS_KEY } from '../../platform/storage/settings-store';
import { isDisabled } from '../../platform/storage/site-guard';
import {
  LOCAL_SETTINGS_KEY,
  localSettingsOf,
  shortcutListOf,
  SHORTCUTS_KEY,
  type ShortcutList,
} from '../../platform/storage/templates-store';
import { onSiteLanguage } from './language';

/** Removes what a part mounted and the listeners it added. */
export type Stop = () => void;

/**
 * One piece of on-site UI that settings turn on and off (the reply buttons, the Summarize button, the mini menu, the
 * shortcut listener…).
 */
export interface LivePart {
  /** Whether it runs with these settings (and state); a disabled site runs no part at all. */
  on(settings: Settings, state: LiveState): boolean;
  /** The settings it reads when it starts (beyond the language): when they change, it restarts. */
  uses?(settings: Settings, state: LiveState): unknown;
  /** `language`: the on-site UI's ('en', 'es' or 'fr'; see `translator` in strings.ts). */
  start(language: string, settings: Settings, state: LiveState): Stop;
}

export interface LiveState {
  settings: Settings;
  disabled: boolean;
  language: string;
  signedIn: boolean;
  /** The person's shortcuts as the background stored them (null signed out or before the first fetch). */
  shortcuts: ShortcutList | null;
  /** What is typed before a shortcut key (this browser's setting). */
  shortcutTrigger: string;
}

const settingsOf = (value: unknown): Settings =>
  value && typeof value === 'object' ? { ...DEFAULT_SETTINGS, ...(value as Settings) } : DEFAULT_SETTINGS;

/**
 * Runs each part while the settings want it, and follows every change at once: one storage.onChanged listener per
 * content script, reacting only to `settings`, `session` (signed in, the profile's interface language), `shortcuts`
 * and `localSettings` (see platform/storage/templates-store.ts). A changed setting starts, stops or restarts (new
 * language, new shortcut) just the parts it concerns; adding the page's host to the disabled sites stops them all. Returns the current state (for message handlers that answer only when enabled).
 */
export async function startLive(ctx: ContentScriptContext, parts: LivePart[]): Promise<() => LiveState> {
  const keys = [SETTINGS_KEY, SESSION_KEY, SHORTCUTS_KEY, LOCAL_SETTINGS_KEY];
  const got = await browser.storage.local.get(keys);
  let settings = settingsOf(got[SETTINGS_KEY]);
  let session = got[SESSION_KEY] as SessionState | undefined;
  let shortcuts = shortcutListOf(got[SHORTCUTS_KEY]);
  let local = localSettingsOf(got[LOCAL_SETTINGS_KEY]);
  const compute = (): LiveState => {
    const language = onSiteLanguage(settings.language, session?.profile?.language ?? null);
    return {
      settings,
      disabled: isDisabled(location.hostname, settings),
      language,
      signedIn: Boolean(session?.signedIn),
      shortcuts,
      shortcutTrigger: local.shortcutTrigger,
    };
  };
  let state = compute();
  const running = new Map<LivePart, { key: string; stop: Stop }>();

  const apply = () => {
    for (const part of parts) {
      const want = !state.disabled && part.on(state.settings, state);
      const key = want ? `${state.language} ${JSON.stringify(part.uses?.(state.settings, state) ?? null)}` : '';
      const now = running.get(part);
      if (now?.key === key) continue;
      if (now) {
        running.delete(part);
        now.stop();
      }
      if (!want) continue;
      try {
        running.set(part, { key, stop: part.start(state.language, state.settings, state) });
      } catch (error) {
        console.error('Parley: a page feature did not start', error);
      }
    }
  };

  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local' || !keys.some((key) => key in changes)) return;
    if (SETTINGS_KEY in changes) settings = settingsOf(changes[SETTINGS_KEY]!.newValue);
    if (SESSION_KEY in changes) session = changes[SESSION_KEY]!.newValue as SessionState | undefined;
    if (SHORTCUTS_KEY in changes) shortcuts = shortcutListOf(changes[SHORTCUTS_KEY]!.newValue);
    if (LOCAL_SETTINGS_KEY in changes) local = localSettingsOf(changes[LOCAL_SETTINGS_KEY]!.newValue);
    state = compute();
    apply();
  };
  browser.storage.onChanged.addListener(onChanged);
  ctx.onInvalidated(() => {
    browser.storage.onChanged.removeListener(onChanged);
    for (const { stop } of running.values()) stop();
    running.clear();
  });
  apply();
  return () => state;
}
