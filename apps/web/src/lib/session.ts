import { useSyncExternalStore } from 'react';
import type { Profile } from '@parley/contract';
import { deleteCookie, setCookie } from './cookies';
import { postTokenToExtension } from './extension-bridge';
import { forgetPendingJoin } from './pending-join';

/** Local storage keys of spec §3. */
export const STORAGE_KEYS = {
  token: 'token',
  loginUserId: 'login_user_id',
  userDetails: 'user_details',
  firstLogin: 'firstLogin',
} as const;

/** The cookie the user id is copied into about 10 s after login (spec §4, §9). */
export const USER_ID_COOKIE = 'login_user_id';
export const COOKIE_COPY_DELAY_MS = 10_000;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

/** Stores a new session (token, user id, profile id). */
export function startSession(token: string, user: Pick<Profile, 'id' | 'profileId' | 'loginCount'>): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.loginUserId, user.id);
  localStorage.setItem(STORAGE_KEYS.userDetails, user.profileId);
  if (user.loginCount === 1) localStorage.setItem(STORAGE_KEYS.firstLogin, 'true');
  else localStorage.removeItem(STORAGE_KEYS.firstLogin);
  postTokenToExtension(token);
  notify();
}

/** Drops the token and every piece of user data kept in the browser, an invitation waiting for an answer included. */
export function clearSession(): void {
  for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
  forgetPendingJoin();
  deleteCookie(USER_ID_COOKIE);
  postTokenToExtension(null);
  notify();
}

export function copyUserIdToCookie(): void {
  const id = localStorage.getItem(STORAGE_KEYS.loginUserId);
  if (id) setCookie(USER_ID_COOKIE, id);
}

/** Where a fresh sign-in lands: the first ever login goes through onboarding. */
export function postLoginPath(user: Pick<Profile, 'loginCount'>): string {
  return user.loginCount === 1 ? '/on-boarding/1' : '/home';
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.token) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored token, re-rendering when it changes (also from another tab). */
export function useToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, () => null);
}
