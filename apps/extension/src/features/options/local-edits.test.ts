import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings, type SettingsUpdate } from '@parley/contract';
import { createLocalEdits } from './local-edits';

/**
 * The background as the page sees it (features/settings/sync.ts behind SET_SETTINGS and SYNC_SETTINGS): one operation
 * at a time, in the order asked; each waits for the server (let go by `next`), then answers with what it has stored.
 */
function background() {
  let stored: Settings = { ...DEFAULT_SETTINGS };
  let queue: Promise<unknown> = Promise.resolve();
  const waiting: (() => void)[] = [];
  const server = () => new Promise<void>((resolve) => waiting.push(resolve));
  const serial = (task: () => Promise<Settings>) => {
    const run = queue.then(task);
    queue = run;
    return run;
  };
  const sync = {
    change: (update: SettingsUpdate) =>
      serial(async () => {
        stored = { ...stored, ...update };
        await server();
        return stored;
      }),
    pull: () =>
      serial(async () => {
        const fetched = stored;
        await server();
        return fetched;
      }),
  };
  const next = async () => {
    for (let i = 0; i < 20 && waiting.length === 0; i++) await Promise.resolve();
    waiting.shift()!();
  };
  return { sync, next };
}

/** The options page's state, as `options-app.tsx` keeps it. */
function page(edits: ReturnType<typeof createLocalEdits>) {
  let shown: Settings = { ...DEFAULT_SETTINGS };
  return {
    shown: () => shown,
    save: (update: SettingsUpdate, send: (u: SettingsUpdate) => Promise<Settings>) => {
      const edit = edits.add(update);
      shown = edits.over({ ...shown, ...update });
      return send(update).then((saved) => {
        edits.settle(edit);
        shown = edits.over(saved);
      });
    },
    arrive: (settings: Settings) => {
      shown = edits.over(settings);
    },
  };
}

describe('changes on the options page not yet confirmed', () => {
  it('stay shown while the answer to an earlier change comes', async () => {
    const { sync, next } = background();
    const view = page(createLocalEdits());
    const first = view.save({ tone: 'FORMAL' }, sync.change);
    const second = view.save({ instantReplyLinkedin: '0' }, sync.change);
    await next(); // the server takes the tone; the background answers with what it stores: the box still ticked
    await first;
    expect(view.shown()).toMatchObject({ tone: 'FORMAL', instantReplyLinkedin: '0' });
    await next();
    await second;
    expect(view.shown()).toMatchObject({ tone: 'FORMAL', instantReplyLinkedin: '0' });
  });

  it('stay shown when the pull made as the page opened answers after them', async () => {
    const { sync, next } = background();
    const view = page(createLocalEdits());
    const pulled = sync.pull().then(view.arrive);
    const saved = view.save({ miniMenu: '0' }, sync.change);
    await next(); // the pull's fetch: the settings before the change
    await pulled;
    expect(view.shown().miniMenu).toBe('0');
    await next();
    await saved;
    expect(view.shown().miniMenu).toBe('0');
  });

  it('give way once settled, to what the background then says', () => {
    const edits = createLocalEdits();
    const first = edits.add({ tone: 'FORMAL' });
    const second = edits.add({ tone: 'FRIENDLY', length: 'LONG' });
    edits.settle(first);
    expect(edits.over(DEFAULT_SETTINGS)).toMatchObject({ tone: 'FRIENDLY', length: 'LONG' });
    edits.settle(second);
    expect(edits.over(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });
});
