import { browser } from 'wxt/browser';
import type { Profile } from '@parley/contract';

/**
 * storage.local layout for the session:
 * - `token`: the bearer token; read only by the background (pages and content scripts never ask for it);
 * - `session`: what the UIs show (signed in, the cached profile, and why the last session ended).
 */
export const TOKEN_KEY = 'token';
export const SESSION_KEY = 'session';

/** Why the extension is signed out: it shows 'You have been logged out' for `forced`. */
export type EndReason = 'logout' | 'web-logout' | 'forced' | 'invalid';

export type SessionState = {
  signedIn: boolean;
  userId: string | null;
  profile: Profile | null;
  endReason: EndReason | null;
  /**
   * With `forced`: why, as the server said it in the person's language (another sign-in, a new password, every device
   * signed out); null when it did not say. Absent from states stored before it existed.
   */
  endMessage?: string | null;
  /** The signed-out person's language, kept from their profile: the pages stay in it, as that message is. */
  endLanguage?: string | null;
};

export const SIGNED_OUT: SessionState = { signedIn: false, userId: null, profile: null, endReason: null };

export async function readSession(): Promise<SessionState> {
  const got = await browser.storage.local.get(SESSION_KEY);
  return (got[SESSION_KEY] as SessionState | undefined) ?? SIGNED_OUT;
}

export function watchSession(listener: (next: SessionState, previous: SessionState) => void): () => void {
  const onChanged = (changes: Record<string, { newValue?: unknown; oldValue?: unknown }>, area: string) => {
    const change = changes[SESSION_KEY];
    if (area !== 'local' || !change) return;
    listener(
      (change.newValue as SessionState | undefined) ?? SIGNED_OUT,
      (change.oldValue as SessionState | undefined) ?? SIGNED_OUT,
    );
  };
  browser.storage.onChanged.addListener(onChanged);
  return () => browser.storage.onChanged.removeListener(onChanged);
}

/** storage.local behind the background's session service. */
export const browserSessionStorage = {
  async getToken(): Promise<string | null> {
    const got = await browser.storage.local.get(TOKEN_KEY);
    return typeof got[TOKEN_KEY] === 'string' ? (got[TOKEN_KEY] as string) : null;
  },
  async setToken(token: string | null): Promise<void> {
    if (token) await browser.storage.local.set({ [TOKEN_KEY]: token });
    else await browser.storage.local.remove(TOKEN_KEY);
  },
  getState: readSession,
  async setState(state: SessionState): Promise<void> {
    await browser.storage.local.set({ [SESSION_KEY]: state });
  },
};
