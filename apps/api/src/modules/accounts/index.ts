import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { Account, SessionWithUser } from './accounts.queries.js';
import type { AuthService } from './auth.service.js';

export { registerAccountsRoutes } from './accounts.routes.js';
export type { AccountPlan, AccountsBilling } from './billing-port.js';
export { toProfile, type ProfileCredits } from './profile.js';
export { createAuthService, type AuthService } from './auth.service.js';
export { createUserService, type UserService } from './users.service.js';
export { createDirectory, type AccountFlags, type Directory, type DirectoryEntry } from './directory.service.js';
export type { Account, SessionRef, SessionRow, SessionWithUser, UserRow } from './accounts.queries.js';
export { SESSION_AND_ACCOUNT, toAccount, toSessionWithUser } from './accounts.queries.js';

/** The bearer token of a request, or 401 when there is none or it is malformed. */
export function bearerToken(request: FastifyRequest) {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(request.headers.authorization ?? '');
  if (!match) throw new DomainError('UNAUTHENTICATED');
  return match[1]!;
}

/** A caller being authenticated: the check runs while the request does other work, and must be awaited before use. */
export type PendingCaller = {
  /**
   * Verifies the session (once, however often it is called): resolves with the user, or rejects with 401 / 409.
   * The check starts on the first call.
   */
  user: () => Promise<Account>;
  /**
   * Verifies the session with a statement that does more at the same time (AuthService.authenticateWith): resolves
   * with the user and what `read` returned. Later calls of `user()` reuse this check.
   */
  userWith: <T>(
    read: (tokenHash: string, now: Date) => Promise<{ found: SessionWithUser | undefined } & T>,
  ) => Promise<{ user: Account; result: T }>;
  /** Who this token belonged to when last seen, to start lookups early; see AuthService.ownerHint. */
  ownerHint: string | undefined;
};

/**
 * For a route on the hot path: the session check runs while the route does other work (a missing or malformed token
 * is refused at once): call `user()` early to start it, await it before using anything found for the hinted owner.
 */
export function createStartAuth(auth: AuthService) {
  return (request: FastifyRequest): PendingCaller => {
    const token = bearerToken(request);
    let checking: Promise<Account> | undefined;
    const user = () => (checking ??= auth.authenticate(token).then((caller) => caller.user));
    const userWith: PendingCaller['userWith'] = (read) => {
      const checked = auth.authenticateWith(token, read).then(({ caller, result }) => ({ user: caller.user, result }));
      if (!checking) {
        checking = checked.then(({ user }) => user);
        checking.catch(() => undefined); // for a later `user()`; the caller of `userWith` handles the failure
      }
      return checked;
    };
    return { user, userWith, ownerHint: auth.ownerHint(token) };
  };
}
