import { ROUTES, type RouteMethod } from './routes.js';
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
  upgradeResultSchema,
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
  renameChatBodySchema,
  replyBodySchema,
  suggestionBodySchema,
  suggestionsResultSchema,
  summaryBodySchema,
  textResultSchema,
  transcriptQuerySchema,
  transcriptResultSchema,
  translateBodySchema,
} from './chat.js';
import { extensionInfoSchema } from './extension.js';
import { modelAvailabilitySchema } from './models.js';
import { settingsSchema, settingsUpdateSchema } from './settings.js';
import {
  confirmCheckoutBodySchema,
  currentPlanSchema,
  freeTrialQuerySchema,
  paymentPlansSchema,
  promoQuerySchema,
  promoSchema,
  redirectUrlSchema,
  studentBodySchema,
  studentConfirmBodySchema,
  subscribeQuerySchema,
  updateSubscriptionQuerySchema,
} from './payment.js';
import {
  adminAuditBodySchema,
  adminAuditSchema,
  adminAutomationsBodySchema,
  adminDeletedSchema,
  adminDeleteErrorLogQuerySchema,
  adminEditUserBodySchema,
  adminErrorLogsBodySchema,
  adminErrorLogsSchema,
  adminForceLogoutSchema,
  adminIdQuerySchema,
  adminOrganizationsBodySchema,
  adminOrganizationsSchema,
  adminUserPlanBodySchema,
  adminUserPlanSchema,
  adminUserSchema,
  adminUsersBodySchema,
  adminUsersSchema,
} from './admin.js';
import {
  adminCreateOrganizationBodySchema,
  adminOrganizationMembersBodySchema,
  adminOrganizationMembersSchema,
  invitationsSchema,
  inviteResultSchema,
  joinBodySchema,
  joinResultSchema,
  orgCreateBodySchema,
  orgEmptyBodySchema,
  orgIdQuerySchema,
  orgInviteBodySchema,
  orgMemberLimitBodySchema,
  teamSchema,
} from './organizations.js';
import {
  deletedSchema,
  idParamsSchema,
  importBodySchema,
  importResultSchema,
  reorderBodySchema,
  shortcutAiQuerySchema,
  shortcutDraftSchema,
  shortcutExistQuerySchema,
  shortcutExistSchema,
  shortcutInputSchema,
  shortcutSchema,
  shortcutsSchema,
  signatureInputSchema,
  signatureSchema,
  signaturesSchema,
  templateAiQuerySchema,
  templateDraftSchema,
  templateInputSchema,
  templateSchema,
  templatesSchema,
} from './templates.js';
import { imageIdParamsSchema, imageModelsSchema, imageSchema, imagesPageSchema, imagesQuerySchema } from './images.js';
import { usageSchema } from './usage.js';
import {
  draftRequestSchema,
  draftResultSchema,
  draftSchema,
  draftsQuerySchema,
  draftsSchema,
  draftUpdateSchema,
  followedProfileSchema,
  followedProfilesSchema,
  followedProfileUpdateSchema,
  keywordInputSchema,
  keywordSchema,
  keywordsSchema,
  keywordUpdateSchema,
  linkedinSettingsSchema,
  linkedinSettingsUpdateSchema,
  profileInputSchema,
  statReadingsSchema,
  statsQuerySchema,
  statsSavedSchema,
  statsSchema,
} from './linkedin.js';
import {
  adminAutomationQuerySchema,
  automationQuerySchema,
  automationSchema,
  automationsQuerySchema,
  automationsSchema,
  automationStatusQuerySchema,
  linkedinCallbackInputSchema,
  linkedinConnectionSchema,
  linkedinConnectSchema,
  postIdeaSchema,
  postInputSchema,
} from './linkedin.js';
import { profileSchema, profileUpdateSchema } from './user.js';

export type Endpoint = {
  method: RouteMethod;
  path: string;
  auth: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters (`:id` in the path), validated like the query. */
  params?: z.ZodType;
  /** A larger body than the server's default bound (an import). */
  bodyLimit?: number;
  /** Schema of `data` in the success envelope. */
  data: z.ZodType;
  summary: string;
};

const none = z.null();

/** Every call of the API, once: the server registers routes from it, clients type their calls with it. */
export const api = {
  register: {
    ...ROUTES.register,
    body: registerBodySchema,
    data: registerResultSchema,
    summary: 'Create an account and send a verification mail',
  },
  verify: {
    ...ROUTES.verify,
    query: verifyQuerySchema,
    data: none,
    summary: 'Verify an email address with the token from the mail',
  },
  resendVerification: {
    ...ROUTES.resendVerification,
    body: resendVerificationBodySchema,
    data: none,
    summary: 'Send the verification mail again',
  },
  login: {
    ...ROUTES.login,
    body: loginBodySchema,
    data: loginResultSchema,
    summary: 'Sign in with email and password',
  },
  socialSignin: {
    ...ROUTES.socialSignin,
    query: socialSigninQuerySchema,
    data: loginResultSchema,
    summary: 'Sign in with a Google ID token',
  },
  forgotPassword: {
    ...ROUTES.forgotPassword,
    body: forgotPasswordBodySchema,
    data: none,
    summary: 'Send a password reset link (same answer whether or not the address exists)',
  },
  resetPassword: {
    ...ROUTES.resetPassword,
    body: resetPasswordBodySchema,
    data: none,
    summary: 'Set a new password with a reset key',
  },
  health: {
    ...ROUTES.health,
    data: z.object({ ok: z.boolean(), database: z.string() }),
    summary: 'Liveness and database check',
  },
  publicConfig: {
    ...ROUTES.publicConfig,
    data: publicConfigSchema,
    summary: 'Public sign-in configuration',
  },
  extensionInfo: {
    ...ROUTES.extensionInfo,
    data: extensionInfoSchema,
    summary: 'The browser extension this server offers for download, and its store page',
  },
  earlyBird: {
    ...ROUTES.earlyBird,
    body: earlyBirdBodySchema,
    data: channelResultSchema,
    summary: 'Early-bird sign-up or sign-in',
  },
  appDeal: {
    ...ROUTES.appDeal,
    body: appDealBodySchema,
    data: channelResultSchema,
    summary: 'App-deal sign-up with a licence code',
  },
  profile: { ...ROUTES.profile, data: profileSchema, summary: 'The signed-in user' },
  usage: {
    ...ROUTES.usage,
    data: usageSchema,
    summary: 'Credits, the last 30 days of use, and what is left of the free tier today',
  },
  updateProfile: {
    ...ROUTES.updateProfile,
    body: profileUpdateSchema,
    data: profileSchema,
    summary: 'Update name, full name, time zone, language',
  },
  settings: {
    ...ROUTES.settings,
    data: settingsSchema,
    summary: 'Extension and app settings',
  },
  updateSettings: {
    ...ROUTES.updateSettings,
    body: settingsUpdateSchema,
    data: settingsSchema,
    summary: 'Update some settings',
  },
  logout: { ...ROUTES.logout, data: none, summary: 'End this session' },
  changePassword: {
    ...ROUTES.changePassword,
    body: changePasswordBodySchema,
    data: none,
    summary: 'Change password; other sessions end',
  },
  upgradeToEarlyBird: {
    ...ROUTES.upgradeToEarlyBird,
    data: upgradeResultSchema,
    summary: 'Mark the signed-in account early-bird',
  },
  upgradeToAppDeal: {
    ...ROUTES.upgradeToAppDeal,
    body: upgradeAppDealBodySchema,
    data: upgradeResultSchema,
    summary: 'Redeem a licence code on the signed-in account',
  },

  models: {
    ...ROUTES.models,
    data: z.array(modelAvailabilitySchema),
    summary: 'The model catalogue and what this user can use',
  },
  chatHistories: {
    ...ROUTES.chatHistories,
    query: historyListQuerySchema,
    data: z.array(chatSummarySchema),
    summary: 'Chat history, newest first, optionally searched',
  },
  chatHistory: {
    ...ROUTES.chatHistory,
    query: chatIdQuerySchema,
    data: chatHistorySchema,
    summary: 'One conversation with its messages',
  },
  deleteChatHistories: {
    ...ROUTES.deleteChatHistories,
    data: z.object({ deleted: z.number().int() }),
    summary: 'Delete every conversation',
  },
  deleteChatHistory: {
    ...ROUTES.deleteChatHistory,
    query: chatIdQuerySchema,
    data: z.null(),
    summary: 'Delete one conversation',
  },
  renameChatHistory: {
    ...ROUTES.renameChatHistory,
    body: renameChatBodySchema,
    data: chatSummarySchema,
    summary: 'Rename one conversation',
  },
  addApiKey: {
    ...ROUTES.addApiKey,
    body: apiKeyBodySchema,
    data: apiKeySchema,
    summary: 'Store your own provider key (encrypted)',
  },
  apiKeys: {
    ...ROUTES.apiKeys,
    data: z.array(apiKeySchema),
    summary: 'Your stored keys, masked',
  },
  deleteApiKey: {
    ...ROUTES.deleteApiKey,
    query: apiKeyDeleteQuerySchema,
    data: z.null(),
    summary: 'Remove your key for a provider',
  },
  editMessage: {
    ...ROUTES.editMessage,
    body: editMessageBodySchema,
    data: textResultSchema,
    summary: 'Rewrite a text with tone, length and language',
  },
  message: {
    ...ROUTES.message,
    body: replyBodySchema,
    data: textResultSchema,
    summary: 'Reply to a message thread',
  },
  mailMessage: {
    ...ROUTES.mailMessage,
    body: replyBodySchema,
    data: textResultSchema,
    summary: 'Reply to a mail thread',
  },
  comment: {
    ...ROUTES.comment,
    body: commentBodySchema,
    data: textResultSchema,
    summary: 'Comment on a post',
  },
  chatSuggestion: {
    ...ROUTES.chatSuggestion,
    body: suggestionBodySchema,
    data: suggestionsResultSchema,
    summary: 'Suggested replies or follow-up questions',
  },
  translate: {
    ...ROUTES.translate,
    body: translateBodySchema,
    data: textResultSchema,
    summary: 'Translate into any language',
  },
  summary: {
    ...ROUTES.summary,
    body: summaryBodySchema,
    data: textResultSchema,
    summary: 'Summarize a mail thread, a video or a page',
  },
  transcript: {
    ...ROUTES.transcript,
    query: transcriptQuerySchema,
    data: transcriptResultSchema,
    summary: 'Transcript of a YouTube video',
  },
  paymentPlans: {
    ...ROUTES.paymentPlans,
    data: paymentPlansSchema,
    summary: 'The plans on sale, their prices and allowances, and whether payments are set up',
  },
  currentPlan: { ...ROUTES.currentPlan, data: currentPlanSchema, summary: 'The caller’s plan and subscription' },
  subscribe: {
    ...ROUTES.subscribe,
    query: subscribeQuerySchema,
    data: redirectUrlSchema,
    summary: 'A hosted checkout for a plan (the server picks the price)',
  },
  freeTrial: {
    ...ROUTES.freeTrial,
    query: freeTrialQuerySchema,
    data: redirectUrlSchema,
    summary: 'A hosted checkout that starts the free trial (once per person)',
  },
  updateSubscription: {
    ...ROUTES.updateSubscription,
    query: updateSubscriptionQuerySchema,
    data: currentPlanSchema,
    summary: 'Change plan, duration or seats, with proration',
  },
  cancelSubscription: {
    ...ROUTES.cancelSubscription,
    data: currentPlanSchema,
    summary: 'Cancel at the end of the period',
  },
  reactivateSubscription: {
    ...ROUTES.reactivateSubscription,
    data: currentPlanSchema,
    summary: 'Undo a cancellation before the period ends',
  },
  renewSubscription: {
    ...ROUTES.renewSubscription,
    data: redirectUrlSchema,
    summary: 'A hosted checkout for the plan of an ended subscription',
  },
  removeSubscription: {
    ...ROUTES.removeSubscription,
    data: currentPlanSchema,
    summary: 'End the subscription now',
  },
  billingPortal: {
    ...ROUTES.billingPortal,
    data: redirectUrlSchema,
    summary: 'The payment provider’s portal: invoices and payment methods',
  },
  promoCode: {
    ...ROUTES.promoCode,
    query: promoQuerySchema,
    data: promoSchema,
    summary: 'What a promotion code gives, as the payment provider validates it',
  },
  studentVerification: {
    ...ROUTES.studentVerification,
    body: studentBodySchema,
    data: none,
    summary: 'Mail a link that verifies an academic address (student pricing)',
  },
  studentConfirm: {
    ...ROUTES.studentConfirm,
    body: studentConfirmBodySchema,
    data: currentPlanSchema,
    summary: 'Confirm the academic address from the mailed link',
  },
  confirmCheckout: {
    ...ROUTES.confirmCheckout,
    body: confirmCheckoutBodySchema,
    data: currentPlanSchema,
    summary: 'After checkout: apply the payment if the provider shows it (never the success URL alone)',
  },
  adminUsers: {
    ...ROUTES.adminUsers,
    body: adminUsersBodySchema,
    data: adminUsersSchema,
    summary: 'Site admin: people, searched, sorted and paged, with plan, credits and 30 days of use',
  },
  adminEditUser: {
    ...ROUTES.adminEditUser,
    body: adminEditUserBodySchema,
    data: adminUserSchema,
    summary: 'Site admin: set credits (all four), lifetime free credits, multiple login',
  },
  adminForceLogout: {
    ...ROUTES.adminForceLogout,
    query: adminIdQuerySchema,
    data: adminForceLogoutSchema,
    summary: 'Site admin: end every session of a person (their clients are told they were logged out)',
  },
  adminDeleteUser: {
    ...ROUTES.adminDeleteUser,
    query: adminIdQuerySchema,
    data: adminDeletedSchema,
    summary: 'Site admin: delete a person and all their data',
  },
  adminRemoveUserPlan: {
    ...ROUTES.adminRemoveUserPlan,
    query: adminIdQuerySchema,
    data: adminUserPlanSchema,
    summary: 'Site admin: end a person’s paid or given plan now',
  },
  adminUserPlan: {
    ...ROUTES.adminUserPlan,
    body: adminUserPlanBodySchema,
    data: adminUserPlanSchema,
    summary: 'Site admin: the plan that pays for a person (theirs, or their organization’s)',
  },
  adminOrganizations: {
    ...ROUTES.adminOrganizations,
    body: adminOrganizationsBodySchema,
    data: adminOrganizationsSchema,
    summary: 'Site admin: organizations, with members and plan',
  },
  adminErrorLogs: {
    ...ROUTES.adminErrorLogs,
    body: adminErrorLogsBodySchema,
    data: adminErrorLogsSchema,
    summary: 'Site admin: unexpected server errors, filtered and paged',
  },
  adminDeleteErrorLog: {
    ...ROUTES.adminDeleteErrorLog,
    query: adminDeleteErrorLogQuerySchema,
    data: adminDeletedSchema,
    summary: 'Site admin: delete one error log entry, or every entry before a date',
  },
  adminAudit: {
    ...ROUTES.adminAudit,
    body: adminAuditBodySchema,
    data: adminAuditSchema,
    summary: 'Site admin: the audit log of admin actions (who, what, on whom, before and after, when)',
  },
  adminCreateOrganization: {
    ...ROUTES.adminCreateOrganization,
    body: adminCreateOrganizationBodySchema,
    data: adminOrganizationMembersSchema,
    summary: 'Site admin: create an organization for a person (its owner and first admin)',
  },
  adminOrganizationMembers: {
    ...ROUTES.adminOrganizationMembers,
    body: adminOrganizationMembersBodySchema,
    data: adminOrganizationMembersSchema,
    summary: 'Site admin: an organization with its members, their use this month, and its invitations',
  },
  orgCreate: {
    ...ROUTES.orgCreate,
    body: orgCreateBodySchema,
    data: teamSchema,
    summary: 'Create an organization (Team plan): its seats are the plan’s, its wallet the plan’s wallet',
  },
  orgTeam: {
    ...ROUTES.orgTeam,
    body: orgEmptyBodySchema,
    data: teamSchema,
    summary: 'The caller’s organization and its members (admins also see limits and use)',
  },
  orgInvites: {
    ...ROUTES.orgInvites,
    body: orgEmptyBodySchema,
    data: invitationsSchema,
    summary: 'Organization admin: invitations waiting for an answer',
  },
  orgLeave: {
    ...ROUTES.orgLeave,
    query: orgIdQuerySchema,
    data: teamSchema,
    summary: 'Leave the organization `id`',
  },
  orgInvite: {
    ...ROUTES.orgInvite,
    body: orgInviteBodySchema,
    data: inviteResultSchema,
    summary: 'Organization admin: invite people by email (each gets a single-use link)',
  },
  orgResendInvite: {
    ...ROUTES.orgResendInvite,
    query: orgIdQuerySchema,
    data: invitationsSchema,
    summary: 'Organization admin: send an invitation again (a new link; the old one stops working)',
  },
  orgRevokeInvite: {
    ...ROUTES.orgRevokeInvite,
    query: orgIdQuerySchema,
    data: invitationsSchema,
    summary: 'Organization admin: revoke an invitation',
  },
  orgRemoveUser: {
    ...ROUTES.orgRemoveUser,
    query: orgIdQuerySchema,
    data: teamSchema,
    summary: 'Organization admin: remove a member',
  },
  orgMakeAdmin: {
    ...ROUTES.orgMakeAdmin,
    query: orgIdQuerySchema,
    data: teamSchema,
    summary: 'Organization admin: make a member an admin',
  },
  orgMakeUser: {
    ...ROUTES.orgMakeUser,
    query: orgIdQuerySchema,
    data: teamSchema,
    summary: 'Organization admin: make an admin a user (their own id: Switch To User)',
  },
  orgMemberLimit: {
    ...ROUTES.orgMemberLimit,
    body: orgMemberLimitBodySchema,
    data: teamSchema,
    summary: 'Organization admin: a member’s monthly credit limit (null: none)',
  },
  join: {
    ...ROUTES.join,
    body: joinBodySchema,
    data: joinResultSchema,
    summary: 'Join an organization with the key of an invitation mailed to the caller’s verified address',
  },
  templates: { ...ROUTES.templates, data: templatesSchema, summary: 'The caller’s reply templates, in their order' },
  template: {
    ...ROUTES.template,
    params: idParamsSchema,
    data: templateSchema,
    summary: 'One of the caller’s templates',
  },
  addTemplate: {
    ...ROUTES.addTemplate,
    body: templateInputSchema,
    data: templateSchema,
    summary: 'Add a template (last in the order)',
  },
  updateTemplate: {
    ...ROUTES.updateTemplate,
    params: idParamsSchema,
    body: templateInputSchema,
    data: templateSchema,
    summary: 'Change a template',
  },
  reorderTemplates: {
    ...ROUTES.reorderTemplates,
    body: reorderBodySchema,
    data: templatesSchema,
    summary: 'Put the caller’s templates in this order (every id once)',
  },
  deleteTemplate: {
    ...ROUTES.deleteTemplate,
    params: idParamsSchema,
    data: deletedSchema,
    summary: 'Delete a template',
  },
  templateAi: {
    ...ROUTES.templateAi,
    query: templateAiQuerySchema,
    data: templateDraftSchema,
    summary: 'Write a template from a sentence (metered; counted in the free tier’s daily uses); not saved',
  },
  importTemplates: {
    ...ROUTES.importTemplates,
    // What the limits allow at most (500 templates of 10,000 characters, 50 signatures, 500 shortcuts), in UTF-8.
    bodyLimit: 12 * 1024 * 1024,
    body: importBodySchema,
    data: importResultSchema,
    summary: 'Import templates, signatures and shortcuts (an export’s JSON)',
  },
  signatures: { ...ROUTES.signatures, data: signaturesSchema, summary: 'The caller’s signatures' },
  addSignature: {
    ...ROUTES.addSignature,
    body: signatureInputSchema,
    data: signatureSchema,
    summary: 'Add a signature (its HTML is cleaned: simple formatting, links and https images)',
  },
  updateSignature: {
    ...ROUTES.updateSignature,
    params: idParamsSchema,
    body: signatureInputSchema,
    data: signatureSchema,
    summary: 'Change a signature',
  },
  deleteSignature: {
    ...ROUTES.deleteSignature,
    params: idParamsSchema,
    data: deletedSchema,
    summary: 'Delete a signature',
  },
  shortcuts: { ...ROUTES.shortcuts, data: shortcutsSchema, summary: 'The caller’s shortcuts (key → text)' },
  addShortcut: {
    ...ROUTES.addShortcut,
    body: shortcutInputSchema,
    data: shortcutSchema,
    summary: 'Add a shortcut (its key unique for the caller)',
  },
  updateShortcut: {
    ...ROUTES.updateShortcut,
    params: idParamsSchema,
    body: shortcutInputSchema,
    data: shortcutSchema,
    summary: 'Change a shortcut',
  },
  deleteShortcut: {
    ...ROUTES.deleteShortcut,
    params: idParamsSchema,
    data: deletedSchema,
    summary: 'Delete a shortcut',
  },
  shortcutTemplates: {
    ...ROUTES.shortcutTemplates,
    data: shortcutsSchema,
    summary: 'The caller’s shortcuts, for the extension (fetched once signed in and kept fresh)',
  },
  shortcutExists: {
    ...ROUTES.shortcutExists,
    query: shortcutExistQuerySchema,
    data: shortcutExistSchema,
    summary: 'Whether a shortcut key is valid and already the caller’s',
  },
  shortcutAi: {
    ...ROUTES.shortcutAi,
    query: shortcutAiQuerySchema,
    data: shortcutDraftSchema,
    summary: 'Write a shortcut’s text from a sentence (metered; counted with AI-made templates); not saved',
  },
  imageModels: {
    ...ROUTES.imageModels,
    data: imageModelsSchema,
    summary: 'Image models with their price in credits per image and whether the caller can use them',
  },
  images: {
    ...ROUTES.images,
    query: imagesQuerySchema,
    data: imagesPageSchema,
    summary: 'The caller’s images, newest first, each with its versions',
  },
  image: {
    ...ROUTES.image,
    params: imageIdParamsSchema,
    data: imageSchema,
    summary: 'One of the caller’s images with its versions',
  },
  deleteImage: {
    ...ROUTES.deleteImage,
    params: imageIdParamsSchema,
    data: deletedSchema,
    summary: 'Delete an image, its versions and their files',
  },
  linkedinConnection: {
    ...ROUTES.linkedinConnection,
    data: linkedinConnectionSchema,
    summary: 'The caller’s LinkedIn connection: none, connected or login needed (and whether this server is set up)',
  },
  linkedinConnect: {
    ...ROUTES.linkedinConnect,
    data: linkedinConnectSchema,
    summary: 'Start connecting LinkedIn: the authorization URL (its state single-use, the caller’s, 10 minutes)',
  },
  linkedinCallback: {
    ...ROUTES.linkedinCallback,
    body: linkedinCallbackInputSchema,
    data: linkedinConnectionSchema,
    summary: 'Finish connecting LinkedIn with the code and state LinkedIn sent back to /linkedin-auth-redirect',
  },
  linkedinLogout: {
    ...ROUTES.linkedinLogout,
    data: linkedinConnectionSchema,
    summary: 'Disconnect LinkedIn: the token is revoked at LinkedIn and deleted',
  },
  linkedinPostIdea: {
    ...ROUTES.linkedinPostIdea,
    body: postIdeaSchema,
    data: textResultSchema,
    summary: 'Write a LinkedIn post from an idea, in the caller’s language and tone (metered; not saved)',
  },
  addLinkedinPost: {
    ...ROUTES.addLinkedinPost,
    body: postInputSchema,
    data: automationSchema,
    summary: 'Schedule a post (local date and time in a time zone; repeat none, daily or weekly)',
  },
  updateLinkedinPost: {
    ...ROUTES.updateLinkedinPost,
    params: idParamsSchema,
    body: postInputSchema,
    data: automationSchema,
    summary: 'Change a scheduled post while it is Pending',
  },
  automations: {
    ...ROUTES.automations,
    query: automationsQuerySchema,
    data: automationsSchema,
    summary: 'The caller’s automations (scheduled posts, daily runs), newest first',
  },
  updateAutomationStatus: {
    ...ROUTES.updateAutomationStatus,
    query: automationStatusQuerySchema,
    data: automationSchema,
    summary: 'Set an automation’s status (Pending resumes one that ended in Error; the caller’s own only)',
  },
  disableDailyRunAutomation: {
    ...ROUTES.disableDailyRunAutomation,
    query: automationQuerySchema,
    data: automationSchema,
    summary: 'Stop an automation’s daily run (a repeating post is not published again)',
  },
  deleteAutomation: {
    ...ROUTES.deleteAutomation,
    query: automationQuerySchema,
    data: deletedSchema,
    summary: 'Delete one of the caller’s automations',
  },
  adminAutomations: {
    ...ROUTES.adminAutomations,
    body: adminAutomationsBodySchema,
    data: automationsSchema,
    summary: 'Site admin: one person’s LinkedIn automations (scheduled posts and daily runs), newest first',
  },
  adminDeleteAutomation: {
    ...ROUTES.adminDeleteAutomation,
    query: adminAutomationQuerySchema,
    data: adminDeletedSchema,
    summary: 'Site admin: delete anyone’s automation (recorded in the audit log)',
  },
  linkedinSettings: {
    ...ROUTES.linkedinSettings,
    data: linkedinSettingsSchema,
    summary: 'The caller’s LinkedIn settings and AI customization (defaults until changed)',
  },
  updateLinkedinSettings: {
    ...ROUTES.updateLinkedinSettings,
    body: linkedinSettingsUpdateSchema,
    data: linkedinSettingsSchema,
    summary: 'Change some LinkedIn settings (auto-engage needs a plan without the free tier’s daily limit)',
  },
  linkedinKeywords: {
    ...ROUTES.linkedinKeywords,
    data: keywordsSchema,
    summary: 'The keywords the caller engages on, with today’s drafts and whether drafts are due',
  },
  addLinkedinKeyword: {
    ...ROUTES.addLinkedinKeyword,
    body: keywordInputSchema,
    data: keywordSchema,
    summary: 'Add a keyword (its avoid and include words; one of each keyword per person)',
  },
  updateLinkedinKeyword: {
    ...ROUTES.updateLinkedinKeyword,
    params: idParamsSchema,
    body: keywordUpdateSchema,
    data: keywordSchema,
    summary: 'Change a keyword',
  },
  deleteLinkedinKeyword: {
    ...ROUTES.deleteLinkedinKeyword,
    params: idParamsSchema,
    data: deletedSchema,
    summary: 'Delete a keyword (and its daily engagement run)',
  },
  linkedinProfiles: {
    ...ROUTES.linkedinProfiles,
    data: followedProfilesSchema,
    summary: 'The profiles the caller follows to engage on their posts',
  },
  addLinkedinProfile: {
    ...ROUTES.addLinkedinProfile,
    body: profileInputSchema,
    data: followedProfileSchema,
    summary: 'Follow a profile (its URL normalized; once per person)',
  },
  updateLinkedinProfile: {
    ...ROUTES.updateLinkedinProfile,
    params: idParamsSchema,
    body: followedProfileUpdateSchema,
    data: followedProfileSchema,
    summary: 'Change a followed profile',
  },
  deleteLinkedinProfile: {
    ...ROUTES.deleteLinkedinProfile,
    params: idParamsSchema,
    data: deletedSchema,
    summary: 'Stop following a profile',
  },
  linkedinDraft: {
    ...ROUTES.linkedinDraft,
    body: draftRequestSchema,
    data: draftResultSchema,
    summary:
      'Draft comments on posts read by the extension: the server picks the posts (24 hours, languages, words, caps)',
  },
  linkedinDrafts: {
    ...ROUTES.linkedinDrafts,
    query: draftsQuerySchema,
    data: draftsSchema,
    summary: 'The caller’s drafted comments, newest first',
  },
  updateLinkedinDraft: {
    ...ROUTES.updateLinkedinDraft,
    params: idParamsSchema,
    body: draftUpdateSchema,
    data: draftSchema,
    summary: 'Edit, accept or dismiss a drafted comment',
  },
  linkedinStats: {
    ...ROUTES.linkedinStats,
    query: statsQuerySchema,
    data: statsSchema,
    summary: 'The caller’s LinkedIn stats over the last days: a series per metric and the latest values',
  },
  addLinkedinStats: {
    ...ROUTES.addLinkedinStats,
    body: statReadingsSchema,
    data: statsSavedSchema,
    summary: 'Save stats read on the caller’s own LinkedIn pages (one value per metric and day; later replaces)',
  },
} as const satisfies Record<string, Endpoint>;

export type Api = typeof api;
export type EndpointName = keyof Api;
export type BodyOf<N extends EndpointName> = Api[N] extends { body: z.ZodType } ? z.input<Api[N]['body']> : undefined;
export type QueryOf<N extends EndpointName> = Api[N] extends { query: z.ZodType }
  ? z.input<Api[N]['query']>
  : undefined;
export type ParamsOf<N extends EndpointName> = Api[N] extends { params: z.ZodType }
  ? z.input<Api[N]['params']>
  : undefined;
export type DataOf<N extends EndpointName> = z.output<Api[N]['data']>;

export { STREAM_PATHS } from './routes.js';
