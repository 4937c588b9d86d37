import {
  DEFAULT_SETTINGS,
  settingsSchema,
  settingsUpdateSchema,
  type Settings,
  type SettingsUpdate,
} from '@parley/contract';
import type { SettingsStore } from '../../platform/storage/settings-store';

/**
 * Spec §4: "Settings sync between extension storage and app state: storage changes update the app; app changes are
 * written back once more than 15 settings keys exist."
 *
 * Our reading, taken literally with the server (/api/user/setting) as "the app":
 * - storage → app: every change made in extension storage (the options page, through SET_SETTINGS) is pushed to the
 *   server at once, and kept as pending until the server accepts it (retried on the next start or sign-in);
 * - app → storage: the server's settings are written back into storage only when the object holds more than 15 keys,
 *   i.e. when it is a whole settings record and not an empty or partial answer, which must never overwrite storage.
 *   Changes still pending locally win over what the server says.
 */
export const WRITE_BACK_MIN_KEYS = 15;

export function canWriteBack(appSettings: unknown): appSettings is Record<string, unknown> {
  return (
    typeof appSettings === 'object' &&
    appSettings !== null &&
    !Array.isArray(appSettings) &&
    Object.keys(appSettings).length > WRITE_BACK_MIN_KEYS
  );
}

export type SettingsApi = {
  fetch(): Promise<unknown>;
  update(body: SettingsUpdate): Promise<unknown>;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createSettingsSync(deps: {
  store: SettingsStore;
  api: SettingsApi;
  isSignedIn: () => Promise<boolean>;
}) {
  const { store, api, isSignedIn } = deps;

  // One operation at a time: a pull must not interleave with a change being pushed.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  async function current(): Promise<Settings> {
    const stored = await store.get();
    if (stored) return stored;
    await store.set(DEFAULT_SETTINGS);
    return DEFAULT_SETTINGS;
  }

  /** App → storage, under the §4 rule. Returns whether storage was written. */
  async function writeBack(app: unknown): Promise<boolean> {
    if (!canWriteBack(app)) return false;
    const parsed = settingsSchema.safeParse(app);
    if (!parsed.success) return false;
    const pending = await store.getPending();
    const next = { ...parsed.data, ...pending };
    if (!same(next, await store.get())) await store.set(next);
    return true;
  }

  /** Storage → app. True when nothing is left pending. */
  async function pushPending(): Promise<boolean> {
    const pending = await store.getPending();
    if (Object.keys(pending).length === 0) return true;
    if (!(await isSignedIn())) return false;
    let answer: unknown;
    try {
      answer = await api.update(pending);
    } catch {
      return false;
    }
    // Keys changed again while the request was out stay pending.
    const now = await store.getPending();
    const rest = Object.fromEntries(
      Object.entries(now).filter(([key, value]) => !same(value, (pending as Record<string, unknown>)[key])),
    ) as SettingsUpdate;
    await store.setPending(rest);
    await writeBack(answer);
    return Object.keys(rest).length === 0;
  }

  return {
    /** The stored settings (DEFAULT_SETTINGS written on first use). */
    get: () => serial(current),

    /** A change from our pages: validated, stored now, pushed to the server. */
    change: (update: SettingsUpdate) =>
      serial(async () => {
        const valid = settingsUpdateSchema.parse(update);
        const next = { ...(await current()), ...valid };
        await store.set(next);
        await store.setPending({ ...(await store.getPending()), ...valid });
        await pushPending();
        return (await store.get()) ?? next;
      }),

    /** On start-up, sign-in and when a settings screen opens: push what is pending, then pull. */
    pull: () =>
      serial(async () => {
        await current();
        if (!(await isSignedIn())) return current();
        if (!(await pushPending())) return current();
        try {
          await writeBack(await api.fetch());
        } catch {
          // Offline or signed out meanwhile: storage keeps what it has.
        }
        return current();
      }),
  };
}

export type SettingsSync = ReturnType<typeof createSettingsSync>;
