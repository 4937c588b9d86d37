import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { AuthService } from './auth.service.js';

export { registerAuthRoutes } from './auth.routes.js';
export { createAuthService, type AuthService } from './auth.service.js';
export { createUserService, type UserService } from './user.service.js';
export type { SessionRow, UserRow } from './auth.queries.js';

/** `Authorization: Bearer <token>` → request.auth, or 401 / 409. */
export function createRequireAuth(auth: AuthService): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
    if (!match) throw new DomainError('UNAUTHENTICATED');
    request.auth = await auth.authenticate(match[1]!);
  };
}
