export { registerWritingRoutes } from './writing.routes.js';
export { createWritingService, type WritingService } from './writing.service.js';
