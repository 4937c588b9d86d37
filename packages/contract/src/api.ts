import { z } from 'zod';
import {
  appDealBodySchema,
  changePasswordBodySchema,
  channelResultSchema,
  earlyBirdBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResultSchema,
  publicConfigSchema,
  registerBodySchema,
  registerResultSchema,
  resendVerificationBodySchema,
  resetPasswordBodySchema,
  socialSigninQuerySchema,
  upgradeAppDealBodySchema,
  verifyQuerySchema,
} from './auth.js';
import { settingsSchema, settingsUpdateSchema } from './settings.js';
import { profileSchema, profileUpdateSchema } from './user.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Endpoint = {
  method: Method;
  path: string;
  auth: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Schema of `data` in the success envelope. */
  data: z.ZodType;
  summary: string;
};

const none = z.null();

/** Every call of the API, once: the server registers routes from it, clients type their calls with it. */
export const api = {
  register: { method: 'POST', path: '/api/auth/register', auth: false, body: registerBodySchema, data: registerResultSchema, summary: 'Create an account and send a verification mail' },
  verify: { method: 'POST', path: '/api/auth/verify', auth: false, query: verifyQuerySchema, data: none, summary: 'Verify an e-mail address with the token from the mail' },
  resendVerification: { method: 'POST', path: '/api/auth/resend-verification', auth: false, body: resendVerificationBodySchema, data: none, summary: 'Send the verification mail again' },
  login: { method: 'POST', path: '/api/auth/login', auth: false, body: loginBodySchema, data: loginResultSchema, summary: 'Sign in with e-mail and password' },
  socialSignin: { method: 'POST', path: '/api/auth/social-signin', auth: false, query: socialSigninQuerySchema, data: loginResultSchema, summary: 'Sign in with a Google ID token' },
  forgotPassword: { method: 'POST', path: '/api/auth/forgot-password', auth: false, body: forgotPasswordBodySchema, data: none, summary: 'Send a password reset link (same answer whether or not the address exists)' },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', auth: false, body: resetPasswordBodySchema, data: none, summary: 'Set a new password with a reset key' },
  health: { method: 'GET', path: '/api/health', auth: false, data: z.object({ ok: z.boolean(), database: z.string() }), summary: 'Liveness and database check' },
  publicConfig: { method: 'GET', path: '/api/auth/config', auth: false, data: publicConfigSchema, summary: 'Public sign-in configuration' },
  earlyBird: { method: 'POST', path: '/api/earlyBird/signInEarlyBird', auth: false, body: earlyBirdBodySchema, data: channelResultSchema, summary: 'Early-bird sign-up or sign-in' },
  appDeal: { method: 'POST', path: '/api/appSumo/signInAppSumo', auth: false, body: appDealBodySchema, data: channelResultSchema, summary: 'App-deal sign-up with a licence code' },
  profile: { method: 'GET', path: '/api/user/profile', auth: true, data: profileSchema, summary: 'The signed-in user' },
  updateProfile: { method: 'POST', path: '/api/user/profile', auth: true, body: profileUpdateSchema, data: profileSchema, summary: 'Update name, full name, time zone, language' },
  settings: { method: 'GET', path: '/api/user/setting', auth: true, data: settingsSchema, summary: 'Extension and app settings' },
  updateSettings: { method: 'POST', path: '/api/user/setting', auth: true, body: settingsUpdateSchema, data: settingsSchema, summary: 'Update some settings' },
  logout: { method: 'POST', path: '/api/user/logout', auth: true, data: none, summary: 'End this session' },
  changePassword: { method: 'POST', path: '/api/user/change-password', auth: true, body: changePasswordBodySchema, data: none, summary: 'Change password; other sessions end' },
  upgradeToEarlyBird: { method: 'POST', path: '/api/user/upgradeToEarlybird', auth: true, data: profileSchema, summary: 'Mark the signed-in account early-bird' },
  upgradeToAppDeal: { method: 'POST', path: '/api/user/upgradeToAppsumo', auth: true, body: upgradeAppDealBodySchema, data: profileSchema, summary: 'Redeem a licence code on the signed-in account' },
} as const satisfies Record<string, Endpoint>;

export type Api = typeof api;
export type EndpointName = keyof Api;
export type BodyOf<N extends EndpointName> = Api[N] extends { body: z.ZodType } ? z.input<Api[N]['body']> : undefined;
export type QueryOf<N extends EndpointName> = Api[N] extends { query: z.ZodType } ? z.input<Api[N]['query']> : undefined;
export type DataOf<N extends EndpointName> = z.output<Api[N]['data']>;
