import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { SESSION_KEY, type SessionState } from '../../platform/storage/session-store';
import { SETTINGS_KEY } from '../../platform/storage/settings-store';
import { isDisabled } from '../../platform/storage/site-guard';
import { onSiteLanguage } from './language';

/** Removes what a part mounted and the listeners it added. */
export type Stop = () => void;

/** One piece of on-site UI that settings turn on and off (the reply buttons, the Summarize button, the mini menu…). */
export interface LivePart {
  /** Whether it runs with these settings; a disabled site runs no part at all. */
  on(settings: Settings): boolean;
  /** The settings it reads when it starts (beyond the language): when they change, it restarts. */
  uses?(settings: Settings): unknown;
  /** `language`: the on-site UI's ('en', 'es' or 'fr'; see `translator` in strings.ts). */
  start(language: string, settings: Settings): Stop;
}

export interface LiveState {
  settings: Settings;
  disabled: boolean;
  language: string;
}

const settingsOf = (value: unknown): Settings =>
  value && typeof value === 'object' ? { ...DEFAULT_SETTINGS, ...(value as Settings) } : DEFAULT_SETTINGS;

/**
 * Runs each part while the settings want it, and follows every change at once: one storage.onChanged listener per
 * content script, reacting only to `settings` and `session` (the profile's interface language). A changed setting
 * starts, stops or restarts (new language, new shortcut) just the parts it concerns; adding the page's host to the
 * disabled sites stops them all. Returns the current state (for message handlers that answer only when enabled).
 */
export async function startLive(ctx: ContentScriptContext, parts: LivePart[]): Promise<() => LiveState> {
  const got = await browser.storage.local.get([SETTINGS_KEY, SESSION_KEY]);
  let settings = settingsOf(got[SETTINGS_KEY]);
  let interfaceLanguage = (got[SESSION_KEY] as SessionState | undefined)?.profile?.language ?? null;
  const compute = (): LiveState => {
    const language = onSiteLanguage(settings.language, interfaceLanguage);
    return { settings, disabled: isDisabled(location.hostname, settings), language };
  };
  let state = compute();
  const running = new Map<LivePart, { key: string; stop: Stop }>();

  const apply = () => {
    for (const part of parts) {
      const want = !state.disabled && part.on(state.settings);
      const key = want ? `${state.language} ${JSON.stringify(part.uses?.(state.settings) ?? null)}` : '';
      const now = running.get(part);
      if (now?.key === key) continue;
      if (now) {
        running.delete(part);
        now.stop();
      }
      if (!want) continue;
      try {
        running.set(part, { key, stop: part.start(state.language, state.settings) });
      } catch (error) {
        console.error('Parley: a page feature did not start', error);
      }
    }
  };

  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local' || !(SETTINGS_KEY in changes || SESSION_KEY in changes)) return;
    if (SETTINGS_KEY in changes) settings = settingsOf(changes[SETTINGS_KEY]!.newValue);
    if (SESSION_KEY in changes) {
      interfaceLanguage = (changes[SESSION_KEY]!.newValue as SessionState | undefined)?.profile?.language ?? null;
    }
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
