import type { Profile } from '@parley/contract';
import { pendingJoinPath } from './pending-join';
import { postLoginPath } from './session';

/**
 * A same-site path ('/home?x=1') or null. Rejects absolute URLs, protocol-relative '//host' and backslash tricks,
 * so ?page= can never send the visitor to another site.
 */
export function sameSitePath(value: string | null | undefined, origin: string = window.location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The query parameter that carries where to go back to after signing in (`/login?next=/chat/abc`). */
export const NEXT_PARAM = 'next';

/** Pages that make no sense to return to once signed in. */
const SIGN_IN_PAGES =
  /^\/(login|signup|signout|earlybird\/signup|appsumo\/signup|forgot-password|reset-password|verify-email|not-found)\/?$/;

/**
 * A page worth returning to after signing in: same site, not a sign-in page, not the root (which goes to /home
 * anyway). Null otherwise.
 */
export function returnPath(value: string | null | undefined, origin: string = window.location.origin): string | null {
  const path = sameSitePath(value, origin);
  if (!path) return null;
  const pathname = path.split(/[?#]/)[0]!;
  if (pathname === '/' || SIGN_IN_PAGES.test(pathname)) return null;
  return path;
}

/** `page` (e.g. '/login') with `?next=<path>` when `path` is worth returning to. */
export function withReturnPath(page: string, path: string | null | undefined, origin?: string): string {
  const next = returnPath(path, origin);
  return next ? `${page}?${NEXT_PARAM}=${encodeURIComponent(next)}` : page;
}

/**
 * Where signing in lands: onboarding the first time (spec §4; its end goes on to the invitation, routes/onboarding),
 * else an organization's invitation opened signed out in this browser (pending-join.ts: it expires, and is the reason
 * the person came), else `next` (see returnPath), else home.
 */
export function landingAfterSignIn(user: Pick<Profile, 'loginCount'>, next: string | null): string {
  if (user.loginCount === 1) return postLoginPath(user);
  return pendingJoinPath() ?? next ?? postLoginPath(user);
}
