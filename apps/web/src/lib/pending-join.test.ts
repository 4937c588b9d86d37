import { describe, expect, it } from 'vitest';
import { INVITATION_DAYS } from '@parley/contract';
import {
  forgetPendingJoin,
  joinPath,
  PENDING_JOIN_STORAGE_KEY,
  pendingJoinKey,
  pendingJoinPath,
  rememberPendingJoin,
} from './pending-join';
import { landingAfterSignIn } from './safe-path';
import { clearSession, startSession } from './session';

const KEY = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 2, 14, 12);

describe('an invitation kept for after sign-in', () => {
  it('is kept under pendingJoin with the time it was kept, and read back as the join page', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS, T0);
    expect(JSON.parse(localStorage.getItem(PENDING_JOIN_STORAGE_KEY)!)).toEqual({
      key: KEY,
      storedAt: T0,
      expiresAt: T0 + INVITATION_DAYS * DAY,
    });
    expect(pendingJoinKey(T0 + DAY)).toBe(KEY);
    expect(pendingJoinPath(T0 + DAY)).toBe(`/join-organization?key=${KEY}`);
  });

  it(`is forgotten ${INVITATION_DAYS} days after it was kept`, () => {
    expect(INVITATION_DAYS).toBe(7);
    rememberPendingJoin(KEY, INVITATION_DAYS, T0);
    expect(pendingJoinKey(T0 + 7 * DAY - 1)).toBe(KEY);
    expect(pendingJoinKey(T0 + 7 * DAY)).toBeNull();
    expect(localStorage.getItem(PENDING_JOIN_STORAGE_KEY)).toBeNull();
  });

  it('counts one kept "in the future" (a clock put back) as out of time', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS, T0);
    expect(pendingJoinKey(T0 - 1)).toBeNull();
    expect(localStorage.getItem(PENDING_JOIN_STORAGE_KEY)).toBeNull();
  });

  it('the last invitation opened wins', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS, T0);
    rememberPendingJoin(`${KEY}-second`, INVITATION_DAYS, T0 + DAY);
    expect(pendingJoinKey(T0 + 2 * DAY)).toBe(`${KEY}-second`);
  });

  it('forgets what it cannot read', () => {
    for (const raw of ['not json', 'null', '{"key":"","storedAt":1,"expiresAt":2}', '{"key":"abc","storedAt":"x"}']) {
      localStorage.setItem(PENDING_JOIN_STORAGE_KEY, raw);
      expect(pendingJoinKey(T0)).toBeNull();
      expect(localStorage.getItem(PENDING_JOIN_STORAGE_KEY)).toBeNull();
    }
  });

  it('is forgotten on request and on sign-out, and not by signing in', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS);
    forgetPendingJoin();
    expect(pendingJoinKey()).toBeNull();

    rememberPendingJoin(KEY, INVITATION_DAYS);
    startSession('tok', { id: 'u1', profileId: 'u1', loginCount: 1 });
    expect(pendingJoinKey()).toBe(KEY);
    clearSession();
    expect(pendingJoinKey()).toBeNull();
  });

  it('escapes the key in the join page’s address', () => {
    expect(joinPath('a+b/c=d&e')).toBe('/join-organization?key=a%2Bb%2Fc%3Dd%26e');
  });
});

describe('landingAfterSignIn with a kept invitation', () => {
  it('a first login still goes through onboarding (whose end leads to the invitation)', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS);
    expect(landingAfterSignIn({ loginCount: 1 }, '/chat')).toBe('/on-boarding/1');
  });

  it('later logins go to the invitation, before ?next= and home', () => {
    expect(landingAfterSignIn({ loginCount: 2 }, null)).toBe('/home');
    expect(landingAfterSignIn({ loginCount: 2 }, '/chat')).toBe('/chat');
    rememberPendingJoin(KEY, INVITATION_DAYS);
    expect(landingAfterSignIn({ loginCount: 2 }, null)).toBe(`/join-organization?key=${KEY}`);
    expect(landingAfterSignIn({ loginCount: 2 }, '/chat')).toBe(`/join-organization?key=${KEY}`);
  });

  it('an expired one is not followed', () => {
    rememberPendingJoin(KEY, INVITATION_DAYS, Date.now() - 8 * DAY);
    expect(landingAfterSignIn({ loginCount: 2 }, null)).toBe('/home');
  });
});
