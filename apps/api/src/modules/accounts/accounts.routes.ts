import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { callerOf as caller, contextOf, defineRoute } from '../../lib/route.js';
import type { AuthService } from './auth.service.js';
import type { UserService } from './users.service.js';

type Deps = {
  auth: AuthService;
  users: UserService;
  googleClientId: string | undefined;
  helpUrl: string | undefined;
  requireAuth: onRequestAsyncHookHandler;
  /** `requireAuth`, with the profile's numbers resolved in the same statement as the caller. */
  requireAuthForProfile: onRequestAsyncHookHandler;
};

export function registerAccountsRoutes(
  app: FastifyInstance,
  { auth, users, googleClientId, helpUrl, requireAuth, requireAuthForProfile }: Deps,
) {
  const route = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, handler);

  route('publicConfig', async () => ({
    data: { googleClientId: googleClientId ?? null, appName: 'Parley', helpUrl: helpUrl ?? null },
  }));

  route('register', async ({ body, request }) => ({
    data: await auth.register(body, contextOf(request)),
    message: 'registered',
  }));
  route('verify', async ({ query, request }) => {
    await auth.verifyEmail(query.token, contextOf(request));
    return { data: null, message: 'verified' };
  });
  route('resendVerification', async ({ body, request }) => {
    await auth.resendVerification(body.email, contextOf(request));
    return { data: null, message: 'verificationSent' };
  });
  route('login', async ({ body, request }) => ({
    data: await auth.login(body, contextOf(request)),
    message: 'loggedIn',
  }));
  route('socialSignin', async ({ query, request }) => ({
    data: await auth.socialSignin(query.idToken, contextOf(request)),
    message: 'loggedIn',
  }));
  route('forgotPassword', async ({ body, request }) => {
    await auth.forgotPassword(body.email, contextOf(request));
    return { data: null, message: 'resetSent' };
  });
  route('resetPassword', async ({ body, request }) => {
    await auth.resetPassword(body.key, body.password, contextOf(request));
    return { data: null, message: 'passwordReset' };
  });
  route('earlyBird', async ({ body, request }) => {
    const result = await auth.earlyBird(body, contextOf(request));
    return { data: result, message: result.token ? 'loggedIn' : 'registered' };
  });
  route('appDeal', async ({ body, request }) => ({
    data: await auth.appDeal(body, contextOf(request)),
    message: 'registered',
  }));

  defineRoute(app, 'profile', requireAuthForProfile, async ({ request }) => ({
    data: await users.profile(caller(request)),
  }));
  route('updateProfile', async ({ body, request }) => ({
    data: await users.updateProfile(caller(request), body),
    message: 'profileUpdated',
  }));
  route('settings', async ({ request }) => ({ data: await users.settings(caller(request)) }));
  route('updateSettings', async ({ body, request }) => ({
    data: await users.updateSettings(caller(request), body),
    message: 'settingsUpdated',
  }));
  route('logout', async ({ request }) => {
    await auth.logout(caller(request).session.id);
    return { data: null, message: 'loggedOut' };
  });
  route('changePassword', async ({ body, request }) => {
    const { user, session } = caller(request);
    await auth.changePassword(user, session.id, body);
    return { data: null, message: 'passwordChanged' };
  });
  route('upgradeToEarlyBird', async ({ request }) => ({
    data: await users.upgradeToEarlyBird(caller(request)),
    message: 'upgraded',
  }));
  route('upgradeToAppDeal', async ({ body, request }) => ({
    data: await users.upgradeToAppDeal(caller(request), body.code, contextOf(request)),
    message: 'upgraded',
  }));
}
