import type { Settings, SettingsUpdate } from '@parley/contract';

/**
 * Changes made on the options page that the background has not confirmed yet, laid over every settings value that
 * arrives meanwhile. The background applies changes one at a time, in the order they were sent, and a value it sends
 * (an answer, a storage change, the pull made when the page opens) may be older than the last click: without this, a
 * box unticked just after another change ticks itself again until the next value comes.
 */
export function createLocalEdits() {
  let last = 0;
  const open = new Map<keyof Settings, { value: unknown; edit: number }>();
  return {
    /** A change made here: its number, to confirm it once the background has answered. */
    add(update: SettingsUpdate): number {
      last += 1;
      for (const [key, value] of Object.entries(update))
        if (value !== undefined) open.set(key as keyof Settings, { value, edit: last });
      return last;
    },
    /** The background has answered change `edit` (applied or refused): it and every change before it are settled. */
    settle(edit: number) {
      for (const [key, entry] of open) if (entry.edit <= edit) open.delete(key);
    },
    /** A value that came from the background, with the changes still open on top. */
    over(settings: Settings): Settings {
      if (open.size === 0) return settings;
      const next: Record<string, unknown> = { ...settings };
      for (const [key, entry] of open) next[key] = entry.value;
      return next as Settings;
    },
  };
}
