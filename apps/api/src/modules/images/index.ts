export { registerImageRoutes } from './images.routes.js';
export { createImagesService, IMAGES_MAX, type ImagesService } from './images.service.js';
