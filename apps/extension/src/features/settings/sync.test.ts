import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings, type SettingsUpdate } from '@parley/contract';
import type { SettingsStore } from '../../platform/storage/settings-store';
import { canWriteBack, createSettingsSync, WRITE_BACK_MIN_KEYS } from './sync';

function memoryStore(initial: Settings | null = null) {
  let settings = initial;
  let pending: SettingsUpdate = {};
  const store: SettingsStore = {
    get: async () => settings,
    set: async (s) => {
      settings = s;
    },
    getPending: async () => pending,
    setPending: async (p) => {
      pending = p;
    },
  };
  return { store, peek: () => ({ settings, pending }) };
}

function fakeServer(initial: Settings = DEFAULT_SETTINGS) {
  let server: Settings = { ...initial };
  let online = true;
  const api = {
    fetch: vi.fn(async (): Promise<unknown> => {
      if (!online) throw new Error('offline');
      return server;
    }),
    update: vi.fn(async (body: SettingsUpdate) => {
      if (!online) throw new Error('offline');
      server = { ...server, ...body };
      return server;
    }),
  };
  return { api, server: () => server, set: (s: Settings) => (server = s), offline: (v: boolean) => (online = !v) };
}

describe('the §4 write-back rule', () => {
  it('needs more than 15 keys', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, '1']));
    expect(WRITE_BACK_MIN_KEYS).toBe(15);
    expect(canWriteBack(keys(15))).toBe(false);
    expect(canWriteBack(keys(16))).toBe(true);
    expect(canWriteBack(DEFAULT_SETTINGS)).toBe(true);
    expect(canWriteBack(null)).toBe(false);
    expect(canWriteBack([...Array(20).keys()])).toBe(false);
  });
});

describe('settings sync', () => {
  it('starts from exactly the defaults', async () => {
    const { store, peek } = memoryStore();
    const sync = createSettingsSync({ store, api: fakeServer().api, isSignedIn: async () => false });
    expect(await sync.get()).toEqual(DEFAULT_SETTINGS);
    expect(peek().settings).toEqual(DEFAULT_SETTINGS);
  });

  it('pulls the server settings into storage when signed in', async () => {
    const { store, peek } = memoryStore(DEFAULT_SETTINGS);
    const server = fakeServer({ ...DEFAULT_SETTINGS, tone: 'FORMAL', disabledSites: ['example.com'] });
    const sync = createSettingsSync({ store, api: server.api, isSignedIn: async () => true });
    await sync.pull();
    expect(peek().settings).toMatchObject({ tone: 'FORMAL', disabledSites: ['example.com'] });
  });

  it('never writes back a partial answer (15 keys or fewer)', async () => {
    const { store, peek } = memoryStore({ ...DEFAULT_SETTINGS, tone: 'DIRECT' });
    const server = fakeServer();
    const partial = Object.fromEntries(Object.entries({ ...DEFAULT_SETTINGS, tone: 'FORMAL' }).slice(0, 15));
    server.api.fetch.mockResolvedValueOnce(partial);
    const sync = createSettingsSync({ store, api: server.api, isSignedIn: async () => true });
    await sync.pull();
    expect(peek().settings?.tone).toBe('DIRECT');
  });

  it('does not touch the server when signed out, and pushes the changes on sign-in', async () => {
    const { store, peek } = memoryStore(DEFAULT_SETTINGS);
    const server = fakeServer();
    let signedIn = false;
    const sync = createSettingsSync({ store, api: server.api, isSignedIn: async () => signedIn });
    await sync.change({ length: 'LONG' });
    expect(peek().settings?.length).toBe('LONG');
    expect(server.api.update).not.toHaveBeenCalled();
    expect(peek().pending).toEqual({ length: 'LONG' });
    signedIn = true;
    await sync.pull();
    expect(server.server().length).toBe('LONG');
    expect(peek().pending).toEqual({});
  });

  it('pushes a change at once and keeps it pending while offline, without losing it to a pull', async () => {
    const { store, peek } = memoryStore(DEFAULT_SETTINGS);
    const server = fakeServer();
    const sync = createSettingsSync({ store, api: server.api, isSignedIn: async () => true });
    await sync.change({ miniMenu: '0' });
    expect(server.server().miniMenu).toBe('0');

    server.offline(true);
    await sync.change({ disabledSites: ['news.test'] });
    expect(peek().pending).toEqual({ disabledSites: ['news.test'] });
    await sync.pull();
    expect(peek().settings?.disabledSites).toEqual(['news.test']);

    server.offline(false);
    server.set({ ...server.server(), tone: 'FRIENDLY' }); // changed meanwhile in the web app
    await sync.pull();
    expect(server.server().disabledSites).toEqual(['news.test']);
    expect(peek().settings).toMatchObject({ tone: 'FRIENDLY', disabledSites: ['news.test'], miniMenu: '0' });
    expect(peek().pending).toEqual({});
  });

  it('refuses invalid changes and unknown keys', async () => {
    const { store, peek } = memoryStore(DEFAULT_SETTINGS);
    const sync = createSettingsSync({ store, api: fakeServer().api, isSignedIn: async () => true });
    await expect(sync.change({ tone: 'SHOUTING' } as never)).rejects.toThrow();
    await expect(sync.change({ token: 'x' } as never)).rejects.toThrow();
    expect(peek().settings).toEqual(DEFAULT_SETTINGS);
  });
});
