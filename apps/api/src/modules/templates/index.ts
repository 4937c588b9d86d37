export { cleanSignatureHtml } from './clean-html.js';
export { registerTemplateRoutes } from './templates.routes.js';
export { createTemplatesService, type TemplatesService } from './templates.service.js';
