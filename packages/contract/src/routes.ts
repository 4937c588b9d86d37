/** Method, path and whether a bearer token is needed, for every JSON call: zod-free, so clients can import it. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const ROUTES = {
  register: { method: 'POST', path: '/api/auth/register', auth: false },
  verify: { method: 'POST', path: '/api/auth/verify', auth: false },
  resendVerification: { method: 'POST', path: '/api/auth/resend-verification', auth: false },
  login: { method: 'POST', path: '/api/auth/login', auth: false },
  socialSignin: { method: 'POST', path: '/api/auth/social-signin', auth: false },
  forgotPassword: { method: 'POST', path: '/api/auth/forgot-password', auth: false },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', auth: false },
  health: { method: 'GET', path: '/api/health', auth: false },
  publicConfig: { method: 'GET', path: '/api/auth/config', auth: false },
  extensionInfo: { method: 'GET', path: '/api/extension', auth: false },
  earlyBird: { method: 'POST', path: '/api/earlyBird/signInEarlyBird', auth: false },
  appDeal: { method: 'POST', path: '/api/appSumo/signInAppSumo', auth: false },
  profile: { method: 'GET', path: '/api/user/profile', auth: true },
  updateProfile: { method: 'POST', path: '/api/user/profile', auth: true },
  usage: { method: 'GET', path: '/api/user/usage', auth: true },
  settings: { method: 'GET', path: '/api/user/setting', auth: true },
  updateSettings: { method: 'POST', path: '/api/user/setting', auth: true },
  logout: { method: 'POST', path: '/api/user/logout', auth: true },
  changePassword: { method: 'POST', path: '/api/user/change-password', auth: true },
  upgradeToEarlyBird: { method: 'POST', path: '/api/user/upgradeToEarlybird', auth: true },
  upgradeToAppDeal: { method: 'POST', path: '/api/user/upgradeToAppsumo', auth: true },
  models: { method: 'GET', path: '/api/ai/models', auth: true },
  chatHistories: { method: 'GET', path: '/api/mongo/users/chat/histories', auth: true },
  chatHistory: { method: 'GET', path: '/api/mongo/users/chat/history', auth: true },
  deleteChatHistories: { method: 'DELETE', path: '/api/mongo/users/chat/histories/delete', auth: true },
  deleteChatHistory: { method: 'DELETE', path: '/api/mongo/users/chat/delete', auth: true },
  renameChatHistory: { method: 'POST', path: '/api/mongo/users/chat/rename', auth: true },
  addApiKey: { method: 'POST', path: '/api/api-key/add', auth: true },
  apiKeys: { method: 'GET', path: '/api/api-key/fetch', auth: true },
  deleteApiKey: { method: 'DELETE', path: '/api/api-key/delete', auth: true },
  editMessage: { method: 'POST', path: '/api/ai/edit-message', auth: true },
  message: { method: 'POST', path: '/api/ai/message', auth: true },
  mailMessage: { method: 'POST', path: '/api/ai/mail-message', auth: true },
  comment: { method: 'POST', path: '/api/ai/comment', auth: true },
  chatSuggestion: { method: 'POST', path: '/api/ai/chatSuggestion', auth: true },
  translate: { method: 'POST', path: '/api/ai/translate', auth: true },
  summary: { method: 'POST', path: '/api/ai/summary', auth: true },
  transcript: { method: 'GET', path: '/api/ai/transcript', auth: true },
  paymentPlans: { method: 'GET', path: '/api/payment/plans', auth: false },
  currentPlan: { method: 'GET', path: '/api/payment/current-plan', auth: true },
  subscribe: { method: 'GET', path: '/api/payment/subscribe', auth: true },
  freeTrial: { method: 'GET', path: '/api/payment/free-trial', auth: true },
  updateSubscription: { method: 'GET', path: '/api/payment/update-subscription', auth: true },
  cancelSubscription: { method: 'POST', path: '/api/payment/cancel-subscription', auth: true },
  reactivateSubscription: { method: 'POST', path: '/api/payment/reactivate-subscription', auth: true },
  renewSubscription: { method: 'GET', path: '/api/payment/renew-subscription', auth: true },
  removeSubscription: { method: 'POST', path: '/api/payment/remove-subscription', auth: true },
  billingPortal: { method: 'GET', path: '/api/payment/portal', auth: true },
  promoCode: { method: 'GET', path: '/api/payment/promo-code', auth: true },
  studentVerification: { method: 'POST', path: '/api/payment/student', auth: true },
  studentConfirm: { method: 'POST', path: '/api/payment/student/confirm', auth: true },
  confirmCheckout: { method: 'POST', path: '/api/payment/confirm', auth: true },
} as const satisfies Record<string, { method: RouteMethod; path: string; auth: boolean }>;

/** Calls that are not JSON in, JSON out. */
export const STREAM_PATHS = {
  /** multipart: field `request` (chatRequestSchema as JSON) and up to 5 `files`; answers the AI SDK UI message stream (SSE). */
  chat: '/api/ai/chat',
  /** multipart: one `audio` file; answers { data: { text } }. */
  transcribe: '/api/ai/transcribe',
  /** An attachment's bytes, for its owner only. */
  file: '/api/files/:id',
  /** The packaged browser extension (a zip of the built folder), for anyone: /install offers it before sign-in. */
  extensionDownload: '/api/extension/download',
  /** Stripe's signed events (raw JSON body, `Stripe-Signature` header). */
  paymentWebhook: '/api/payment/webhook',
} as const;
