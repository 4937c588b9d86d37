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
import {
  apiKeyBodySchema,
  apiKeyDeleteQuerySchema,
  apiKeySchema,
  chatHistorySchema,
  chatIdQuerySchema,
  chatSummarySchema,
  commentBodySchema,
  editMessageBodySchema,
  historyListQuerySchema,
  replyBodySchema,
  suggestionBodySchema,
  suggestionsResultSchema,
  summaryBodySchema,
  textResultSchema,
  transcriptQuerySchema,
  transcriptResultSchema,
  translateBodySchema,
} from './chat.js';
import { modelAvailabilitySchema } from './models.js';
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
  register: {
    method: 'POST',
    path: '/api/auth/register',
    auth: false,
    body: registerBodySchema,
    data: registerResultSchema,
    summary: 'Create an account and send a verification mail',
  },
  verify: {
    method: 'POST',
    path: '/api/auth/verify',
    auth: false,
    query: verifyQuerySchema,
    data: none,
    summary: 'Verify an e-mail address with the token from the mail',
  },
  resendVerification: {
    method: 'POST',
    path: '/api/auth/resend-verification',
    auth: false,
    body: resendVerificationBodySchema,
    data: none,
    summary: 'Send the verification mail again',
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    auth: false,
    body: loginBodySchema,
    data: loginResultSchema,
    summary: 'Sign in with e-mail and password',
  },
  socialSignin: {
    method: 'POST',
    path: '/api/auth/social-signin',
    auth: false,
    query: socialSigninQuerySchema,
    data: loginResultSchema,
    summary: 'Sign in with a Google ID token',
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot-password',
    auth: false,
    body: forgotPasswordBodySchema,
    data: none,
    summary: 'Send a password reset link (same answer whether or not the address exists)',
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/reset-password',
    auth: false,
    body: resetPasswordBodySchema,
    data: none,
    summary: 'Set a new password with a reset key',
  },
  health: {
    method: 'GET',
    path: '/api/health',
    auth: false,
    data: z.object({ ok: z.boolean(), database: z.string() }),
    summary: 'Liveness and database check',
  },
  publicConfig: {
    method: 'GET',
    path: '/api/auth/config',
    auth: false,
    data: publicConfigSchema,
    summary: 'Public sign-in configuration',
  },
  earlyBird: {
    method: 'POST',
    path: '/api/earlyBird/signInEarlyBird',
    auth: false,
    body: earlyBirdBodySchema,
    data: channelResultSchema,
    summary: 'Early-bird sign-up or sign-in',
  },
  appDeal: {
    method: 'POST',
    path: '/api/appSumo/signInAppSumo',
    auth: false,
    body: appDealBodySchema,
    data: channelResultSchema,
    summary: 'App-deal sign-up with a licence code',
  },
  profile: { method: 'GET', path: '/api/user/profile', auth: true, data: profileSchema, summary: 'The signed-in user' },
  updateProfile: {
    method: 'POST',
    path: '/api/user/profile',
    auth: true,
    body: profileUpdateSchema,
    data: profileSchema,
    summary: 'Update name, full name, time zone, language',
  },
  settings: {
    method: 'GET',
    path: '/api/user/setting',
    auth: true,
    data: settingsSchema,
    summary: 'Extension and app settings',
  },
  updateSettings: {
    method: 'POST',
    path: '/api/user/setting',
    auth: true,
    body: settingsUpdateSchema,
    data: settingsSchema,
    summary: 'Update some settings',
  },
  logout: { method: 'POST', path: '/api/user/logout', auth: true, data: none, summary: 'End this session' },
  changePassword: {
    method: 'POST',
    path: '/api/user/change-password',
    auth: true,
    body: changePasswordBodySchema,
    data: none,
    summary: 'Change password; other sessions end',
  },
  upgradeToEarlyBird: {
    method: 'POST',
    path: '/api/user/upgradeToEarlybird',
    auth: true,
    data: profileSchema,
    summary: 'Mark the signed-in account early-bird',
  },
  upgradeToAppDeal: {
    method: 'POST',
    path: '/api/user/upgradeToAppsumo',
    auth: true,
    body: upgradeAppDealBodySchema,
    data: profileSchema,
    summary: 'Redeem a licence code on the signed-in account',
  },

  models: {
    method: 'GET',
    path: '/api/ai/models',
    auth: true,
    data: z.array(modelAvailabilitySchema),
    summary: 'The model catalogue and what this user can use',
  },
  chatHistories: {
    method: 'GET',
    path: '/api/mongo/users/chat/histories',
    auth: true,
    query: historyListQuerySchema,
    data: z.array(chatSummarySchema),
    summary: 'Chat history, newest first, optionally searched',
  },
  chatHistory: {
    method: 'GET',
    path: '/api/mongo/users/chat/history',
    auth: true,
    query: chatIdQuerySchema,
    data: chatHistorySchema,
    summary: 'One conversation with its messages',
  },
  deleteChatHistories: {
    method: 'DELETE',
    path: '/api/mongo/users/chat/histories/delete',
    auth: true,
    data: z.object({ deleted: z.number().int() }),
    summary: 'Delete every conversation',
  },
  deleteChatHistory: {
    method: 'DELETE',
    path: '/api/mongo/users/chat/delete',
    auth: true,
    query: chatIdQuerySchema,
    data: z.null(),
    summary: 'Delete one conversation',
  },
  addApiKey: {
    method: 'POST',
    path: '/api/api-key/add',
    auth: true,
    body: apiKeyBodySchema,
    data: apiKeySchema,
    summary: 'Store your own provider key (encrypted)',
  },
  apiKeys: {
    method: 'GET',
    path: '/api/api-key/fetch',
    auth: true,
    data: z.array(apiKeySchema),
    summary: 'Your stored keys, masked',
  },
  deleteApiKey: {
    method: 'DELETE',
    path: '/api/api-key/delete',
    auth: true,
    query: apiKeyDeleteQuerySchema,
    data: z.null(),
    summary: 'Remove your key for a provider',
  },
  editMessage: {
    method: 'POST',
    path: '/api/ai/edit-message',
    auth: true,
    body: editMessageBodySchema,
    data: textResultSchema,
    summary: 'Rewrite a text with tone, length and language',
  },
  message: {
    method: 'POST',
    path: '/api/ai/message',
    auth: true,
    body: replyBodySchema,
    data: textResultSchema,
    summary: 'Reply to a message thread',
  },
  mailMessage: {
    method: 'POST',
    path: '/api/ai/mail-message',
    auth: true,
    body: replyBodySchema,
    data: textResultSchema,
    summary: 'Reply to a mail thread',
  },
  comment: {
    method: 'POST',
    path: '/api/ai/comment',
    auth: true,
    body: commentBodySchema,
    data: textResultSchema,
    summary: 'Comment on a post',
  },
  chatSuggestion: {
    method: 'POST',
    path: '/api/ai/chatSuggestion',
    auth: true,
    body: suggestionBodySchema,
    data: suggestionsResultSchema,
    summary: 'Suggested replies or follow-up questions',
  },
  translate: {
    method: 'POST',
    path: '/api/ai/translate',
    auth: true,
    body: translateBodySchema,
    data: textResultSchema,
    summary: 'Translate into any language',
  },
  summary: {
    method: 'POST',
    path: '/api/ai/summary',
    auth: true,
    body: summaryBodySchema,
    data: textResultSchema,
    summary: 'Summarize a mail thread, a video or a page',
  },
  transcript: {
    method: 'GET',
    path: '/api/ai/transcript',
    auth: true,
    query: transcriptQuerySchema,
    data: transcriptResultSchema,
    summary: 'Transcript of a YouTube video',
  },
} as const satisfies Record<string, Endpoint>;

/** Calls that are not JSON in, JSON out. */
export const STREAM_PATHS = {
  /** multipart: field `request` (chatRequestSchema as JSON) and up to 5 `files`; answers the AI SDK UI message stream (SSE). */
  chat: '/api/ai/chat',
  /** multipart: one `audio` file; answers { data: { text } }. */
  transcribe: '/api/ai/transcribe',
  /** An attachment's bytes, for its owner only. */
  file: '/api/files/:id',
} as const;

export type Api = typeof api;
export type EndpointName = keyof Api;
export type BodyOf<N extends EndpointName> = Api[N] extends { body: z.ZodType } ? z.input<Api[N]['body']> : undefined;
export type QueryOf<N extends EndpointName> = Api[N] extends { query: z.ZodType }
  ? z.input<Api[N]['query']>
  : undefined;
export type DataOf<N extends EndpointName> = z.output<Api[N]['data']>;
