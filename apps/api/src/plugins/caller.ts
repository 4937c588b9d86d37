import type { onRequestAsyncHookHandler } from 'fastify';
import { bearerToken, type AuthService } from '../modules/accounts/index.js';
import type { BillingService } from '../modules/billing/index.js';

/**
 * Who is calling and who pays, resolved once per request: the session (401 when there is none, 409 when it was
 * ended elsewhere), its user and role, the organization the call is made in (none until organizations arrive), and
 * the wallet that pays — one statement. An `onRequest` hook: it runs before any byte of the body is read.
 */
export function createRequireCaller({
  auth,
  billing,
  withRecentUse = false,
}: {
  auth: AuthService;
  billing: BillingService;
  /** Also the credits used over the last 30 days, in the same statement (the profile shows them). */
  withRecentUse?: boolean;
}) {
  const requireCaller: onRequestAsyncHookHandler = async (request) => {
    const { caller, result } = await auth.authenticateWith(bearerToken(request), (tokenHash) =>
      billing.sessionWithWallet(tokenHash, withRecentUse),
    );
    request.caller = await billing.callerOf(caller.user, caller.session, result);
  };
  return requireCaller;
}
