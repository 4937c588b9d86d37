import type { Shortcut, Signature, Template } from '@parley/contract';
import { describe, expect, it, vi } from 'vitest';
import {
  FRESH_FOR_MS,
  type ShortcutList,
  type TemplateLibrary,
  type TemplatesStore,
} from '../../platform/storage/templates-store';
import { createTemplatesSync } from './sync';

const stamp = { createdAt: '2026-11-26T08:00:00.000Z', updatedAt: '2026-11-26T08:00:00.000Z' };
const template = (id: string, title: string): Template => ({
  id,
  kind: 'mail',
  title,
  body: `Hi {{first_name}}, ${title}`,
  language: null,
  tone: null,
  length: null,
  position: 0,
  ...stamp,
});
const signature: Signature = { id: 's1', name: 'Work', html: '<p>Alex</p>', defaultFor: ['gmail'], ...stamp };
const shortcut: Shortcut = { id: 'k1', key: 'thx', text: 'Thank you!', ...stamp };

function memoryStore() {
  let library: TemplateLibrary | null = null;
  let shortcuts: ShortcutList | null = null;
  const store: TemplatesStore = {
    getLibrary: async () => library,
    getShortcuts: async () => shortcuts,
    set: async (l, s) => {
      library = l;
      shortcuts = s;
    },
    clear: async () => {
      library = null;
      shortcuts = null;
    },
  };
  return { store, library: () => library, shortcuts: () => shortcuts };
}

/** Answers of the three calls, as the API gives them (mocked until the server's templates module is there). */
function fakeApi() {
  return {
    templates: vi.fn(async () => ({ templates: [template('t1', 'See you Friday')] })),
    signatures: vi.fn(async () => ({ signatures: [signature] })),
    shortcuts: vi.fn(async () => ({ shortcuts: [shortcut] })),
  };
}

function setup(who = { signedIn: true, userId: 'u1' as string | null }) {
  const memory = memoryStore();
  const api = fakeApi();
  let clock = 1_000_000;
  const session = { ...who };
  const sync = createTemplatesSync({ store: memory.store, api, who: async () => session, now: () => clock });
  return { ...memory, api, sync, session, tick: (ms: number) => (clock += ms) };
}

describe('templates sync (background)', () => {
  it('fetches templates, signatures and shortcuts once signed in, and stores only what the pages need', async () => {
    const { sync, api, library, shortcuts } = setup();
    await sync.refresh();
    expect(api.templates).toHaveBeenCalledTimes(1);
    expect(library()).toEqual({
      userId: 'u1',
      fetchedAt: 1_000_000,
      templates: [
        { id: 't1', kind: 'mail', title: 'See you Friday', body: 'Hi {{first_name}}, See you Friday', language: null },
      ],
      signatures: [{ id: 's1', name: 'Work', html: '<p>Alex</p>', defaultFor: ['gmail'] }],
    });
    expect(shortcuts()).toEqual({ userId: 'u1', fetchedAt: 1_000_000, items: [{ key: 'thx', text: 'Thank you!' }] });
  });

  it('answers from storage, refetching at most every few minutes when asked', async () => {
    const { sync, api, tick } = setup();
    expect((await sync.get()).templates).toHaveLength(1); // nothing stored yet: fetched first
    expect(api.templates).toHaveBeenCalledTimes(1);
    tick(FRESH_FOR_MS - 1);
    await sync.get();
    expect(await sync.refreshIfStale()).toBe(false);
    expect(api.templates).toHaveBeenCalledTimes(1);
    tick(2);
    api.templates.mockResolvedValueOnce({ templates: [template('t1', 'See you Friday'), template('t2', 'Thanks')] });
    // Stale: answered with what is stored at once, fetched again behind it.
    expect((await sync.get()).templates).toHaveLength(1);
    await vi.waitFor(() => expect(api.templates).toHaveBeenCalledTimes(2));
    await vi.waitFor(async () => expect((await sync.get()).templates).toHaveLength(2));
    expect(await sync.refreshIfStale()).toBe(false);
  });

  it('one fetch at a time', async () => {
    const { sync, api } = setup();
    await Promise.all([sync.refresh(), sync.refresh(), sync.get()]);
    expect(api.templates).toHaveBeenCalledTimes(1);
  });

  it('a change on the web is fetched at once, and once more after a fetch that was already under way', async () => {
    const { sync, api, library } = setup();
    await sync.refresh();
    api.templates.mockResolvedValueOnce({ templates: [template('t1', 'See you Friday'), template('t2', 'Thanks')] });
    expect(await sync.changed()).toBe(true);
    await vi.waitFor(() => expect(library()?.templates).toHaveLength(2));
    expect(api.templates).toHaveBeenCalledTimes(2);

    // A fetch under way may have read the lists before the change: one more follows it, shared by every change meanwhile.
    let release!: () => void;
    api.templates.mockImplementationOnce(
      () => new Promise((resolve) => (release = () => resolve({ templates: [template('t1', 'See you Friday')] }))),
    );
    api.templates.mockResolvedValueOnce({ templates: [] });
    const running = sync.refresh();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    await Promise.all([sync.changed(), sync.changed(), sync.changed()]);
    release();
    await running;
    await vi.waitFor(() => expect(library()?.templates).toEqual([]));
    expect(api.templates).toHaveBeenCalledTimes(4);
  });

  it('gives nothing and fetches nothing signed out', async () => {
    const { sync, api } = setup({ signedIn: false, userId: null });
    expect(await sync.get()).toEqual({ templates: [], signatures: [] });
    expect(await sync.refreshIfStale()).toBe(false);
    expect(await sync.changed()).toBe(false);
    await sync.refresh();
    expect(api.templates).not.toHaveBeenCalled();
  });

  it('drops a fetch that ends after the session changed, and clears on sign-out', async () => {
    const { sync, api, session, library, shortcuts } = setup();
    let release!: () => void;
    api.shortcuts.mockImplementationOnce(
      () => new Promise((resolve) => (release = () => resolve({ shortcuts: [shortcut] }))),
    );
    const running = sync.refresh();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    session.userId = 'u2';
    release();
    await running;
    expect(library()).toBeNull();
    await sync.refresh();
    expect(library()?.userId).toBe('u2');
    await sync.clear();
    expect(library()).toBeNull();
    expect(shortcuts()).toBeNull();
  });

  it('a call that fails keeps what was stored for the same person, and someone else’s is never kept', async () => {
    const { sync, api, library, shortcuts, session, tick } = setup();
    await sync.refresh();
    api.signatures.mockRejectedValueOnce(Object.assign(new Error('down'), { status: 503 }));
    api.shortcuts.mockRejectedValueOnce(Object.assign(new Error('down'), { status: 503 }));
    tick(10);
    await sync.refresh();
    expect(library()?.signatures).toHaveLength(1);
    expect(shortcuts()?.items).toHaveLength(1);
    expect(library()?.fetchedAt).toBe(1_000_010);
    session.userId = 'u2';
    api.shortcuts.mockRejectedValueOnce(new Error('down'));
    await sync.refresh();
    expect(shortcuts()).toEqual({ userId: 'u2', fetchedAt: 1_000_010, items: [] });
  });
});
