import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '@parley/contract';
import { SIGNED_OUT, type SessionState } from '../../platform/storage/session-store';
import { createSessionService, type SessionStorage } from './session-service';

const profile = { id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'es' } as Profile;
const token = 'T'.repeat(43);

function memory() {
  let t: string | null = null;
  let state: SessionState = SIGNED_OUT;
  const storage: SessionStorage = {
    getToken: async () => t,
    setToken: async (v) => {
      t = v;
    },
    getState: async () => state,
    setState: async (s) => {
      state = s;
    },
  };
  return { storage, peek: () => ({ token: t, state }) };
}

describe('session service', () => {
  it('accepts a token, loads the profile and pulls settings', async () => {
    const m = memory();
    const onSignedIn = vi.fn();
    const s = createSessionService({
      storage: m.storage,
      fetchProfile: async () => profile,
      serverLogout: async () => undefined,
      onSignedIn,
    });
    expect(await s.accept(token)).toEqual({ signedIn: true, userId: 'u1' });
    expect(m.peek().token).toBe(token);
    expect(m.peek().state.profile?.email).toBe('ana@example.com');
    expect(onSignedIn).toHaveBeenCalledOnce();
  });

  it('refuses malformed tokens', async () => {
    const m = memory();
    const s = createSessionService({ storage: m.storage, fetchProfile: async () => profile, serverLogout: vi.fn() });
    await expect(s.accept('short')).rejects.toThrow();
    await expect(s.accept('has spaces and <script> in it')).rejects.toThrow();
    expect(m.peek().token).toBeNull();
  });

  it('drops a token the API refuses', async () => {
    const m = memory();
    const s = createSessionService({
      storage: m.storage,
      fetchProfile: async () => {
        throw Object.assign(new Error('no'), { status: 401 });
      },
      serverLogout: vi.fn(),
    });
    expect(await s.accept(token)).toEqual({ signedIn: false, userId: null });
    expect(m.peek()).toMatchObject({ token: null, state: { endReason: 'invalid' } });
  });

  it('keeps the forced-logout notice when the web app echoes the logout', async () => {
    const m = memory();
    const s = createSessionService({ storage: m.storage, fetchProfile: async () => profile, serverLogout: vi.fn() });
    await s.accept(token);
    await s.end('forced', 'Se ha cerrado tu sesión: otro inicio de sesión.');
    await s.accept(null);
    // The pages stay in the person's language (the profile's), the one the server's message is written in.
    expect(m.peek().state).toMatchObject({
      endReason: 'forced',
      endMessage: 'Se ha cerrado tu sesión: otro inicio de sesión.',
      endLanguage: 'es',
    });
  });

  it('a token the API client dropped (409) is gone at once; end records why', async () => {
    const m = memory();
    const s = createSessionService({ storage: m.storage, fetchProfile: async () => profile, serverLogout: vi.fn() });
    await s.accept(token);
    s.drop();
    expect(s.token()).toBeNull();
    expect(await s.end('forced')).toEqual({ signedIn: false, userId: null });
    expect(m.peek()).toMatchObject({ token: null, state: { signedIn: false, endReason: 'forced', endMessage: null } });
  });

  it('logs out on the server, then here', async () => {
    const m = memory();
    const serverLogout = vi.fn(async () => {
      throw new Error('offline');
    });
    const s = createSessionService({ storage: m.storage, fetchProfile: async () => profile, serverLogout });
    await s.accept(token);
    expect(await s.logout()).toEqual({ signedIn: false, userId: null });
    expect(serverLogout).toHaveBeenCalledWith(token);
    expect(m.peek()).toMatchObject({ token: null, state: { endReason: 'logout' } });
  });
});
