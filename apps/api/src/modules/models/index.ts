export { assertPublicBaseUrl } from './keys.service.js';
export { registerModelsRoutes } from './models.routes.js';
export { createModelsService, type ModelsService } from './models.service.js';
