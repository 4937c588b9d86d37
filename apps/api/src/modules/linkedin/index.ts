export { registerAutomationRoutes } from './linkedin.automations.routes.js';
export {
  createAutomationsService,
  toAutomation,
  type AuditSink as AutomationsAuditSink,
  type AutomationsService,
} from './linkedin.automations.service.js';
export { registerLinkedinConnectionRoutes } from './linkedin.connection.routes.js';
export {
  createLinkedinConnection,
  type LinkedinConnectionService,
  type PostingToken,
} from './linkedin.connection.service.js';
export { registerLinkedinPostRoutes } from './linkedin.posts.routes.js';
export { createPostsService, type PostsService } from './linkedin.posts.service.js';
export { createPublisher, type Publisher, type RunOutcome } from './linkedin.scheduler.publisher.js';
export {
  createScheduler,
  createInProcessScheduler,
  createPgBossScheduler,
  type Scheduler,
} from './linkedin.scheduler.js';
export { registerLinkedinDraftRoutes } from './linkedin.drafts.routes.js';
export { createLinkedinDrafts, type LinkedinDraftsService } from './linkedin.drafts.service.js';
export { createLinkedinEngage, normalizeProfileUrl, type LinkedinEngageService } from './linkedin.engage.service.js';
export { registerLinkedinSettingsRoutes } from './linkedin.settings.routes.js';
export { createLinkedinSettings, type LinkedinSettingsService } from './linkedin.settings.service.js';
export { registerLinkedinStatsRoutes } from './linkedin.stats.routes.js';
export { createLinkedinStats, type LinkedinStatsService } from './linkedin.stats.service.js';
