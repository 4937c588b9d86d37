/** The LinkedIn assistant's pages (spec §2 /linkedin-auth-redirect and /automation/*). */
export const LINKEDIN_PATHS = {
  root: '/automation',
  connect: '/automation/linkedin-access-1',
  redirect: '/linkedin-auth-redirect',
  logout: '/automation/linkedInLogout',
  dashboard: '/automation/dashboard-linkedin',
  keywords: '/automation/keywords',
  profiles: '/automation/profiles',
  customization: '/automation/customization',
  stats: '/automation/linkedInStatus',
  settings: '/automation/linkedInSetting',
  automations: '/automation/li-automation',
  posts: '/automation/post-automation',
  newPost: '/automation/post-automation/new',
  postStatus: '/automation/post-automation/status',
  post: (automationId: string) => `/automation/post-automation/${encodeURIComponent(automationId)}`,
} as const;

/** Where a person refused for their plan is sent. */
export const PLANS_PATH = '/subscription';
