import type { Profile } from '@parley/contract';
import type { SessionInfo } from '../../platform/messaging/protocol';
import { SIGNED_OUT, type EndReason, type SessionState } from '../../platform/storage/session-store';

/** Opaque bearer tokens: printable, bounded. Anything else handed over is refused. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,1024}$/;
export const isPlausibleToken = (value: unknown): value is string =>
  typeof value === 'string' && TOKEN_PATTERN.test(value);

export type SessionStorage = {
  getToken(): Promise<string | null>;
  setToken(token: string | null): Promise<void>;
  getState(): Promise<SessionState>;
  setState(state: SessionState): Promise<void>;
};

/**
 * The session, owned by the background worker: the token arrives from the web app (SET_COOKIE) and ends on logout
 * here or there, on a 409 (forced) or when the token is refused (invalid).
 */
export function createSessionService(deps: {
  storage: SessionStorage;
  /** GET /api/user/profile with this token; throws ApiError-like { status } on failure. */
  fetchProfile: (token: string) => Promise<Profile>;
  /** POST /api/user/logout with this token. */
  serverLogout: (token: string) => Promise<void>;
  /** After a new token is stored and accepted (settings pull). */
  onSignedIn?: () => Promise<void> | void;
}) {
  const { storage } = deps;
  let token: string | null = null;
  const ready = storage.getToken().then((t) => {
    token = t;
  });

  const info = (state: SessionState): SessionInfo => ({ signedIn: state.signedIn, userId: state.userId });

  /** Ends the session; `message` is why, when the server said (a forced logout). */
  async function end(reason: EndReason, message: string | null = null): Promise<SessionInfo> {
    await ready;
    const state = await storage.getState();
    // Ending an ended session changes nothing: a 'forced' notice is not overwritten by the web app's echo.
    if (!token && !state.signedIn) return info(state);
    token = null;
    await storage.setToken(null);
    const next: SessionState = {
      ...SIGNED_OUT,
      endReason: reason,
      endMessage: message,
      endLanguage: state.profile?.language ?? state.endLanguage ?? null,
    };
    await storage.setState(next);
    return info(next);
  }

  /**
   * Forgets the token at once, before any other call can send it: the API client does this on a 409 or a refused
   * token, then says why (`end('forced')` / `end('invalid')`).
   */
  function drop() {
    token = null;
    void storage.setToken(null);
  }

  async function setProfile(profile: Profile) {
    await ready;
    if (!token) return;
    await storage.setState({ signedIn: true, userId: profile.id, profile, endReason: null });
  }

  async function accept(newToken: string | null): Promise<SessionInfo> {
    await ready;
    if (newToken === null) return end('web-logout');
    if (!isPlausibleToken(newToken))
      throw Object.assign(new Error('Malformed token'), { code: 'BAD_TOKEN', status: 400 });
    if (newToken === token) return info(await storage.getState());
    token = newToken;
    await storage.setToken(newToken);
    await storage.setState({ signedIn: true, userId: null, profile: null, endReason: null });
    try {
      const profile = await deps.fetchProfile(newToken);
      if (token !== newToken) return info(await storage.getState());
      await setProfile(profile);
    } catch (error) {
      const status = (error as { status?: number })?.status;
      // The API client ended the session itself on a 409 (forced) or 401 (invalid); other refusals mean this token is
      // no good either.
      if (token === newToken && status !== 0 && status !== 409) await end('invalid');
      return info(await storage.getState());
    }
    await deps.onSignedIn?.();
    return info(await storage.getState());
  }

  async function logout(): Promise<SessionInfo> {
    await ready;
    const current = token;
    if (current) {
      try {
        await deps.serverLogout(current);
      } catch {
        // The server may already have ended it; we forget the token anyway.
      }
    }
    return end('logout');
  }

  return {
    ready,
    /** The current token (after `ready`). */
    token: () => token,
    info: async () => info(await storage.getState()),
    accept,
    logout,
    drop,
    end,
    setProfile,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
