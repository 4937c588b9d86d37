export { ImageGeneration } from './components/image-generation';
export { ImageEditor } from './components/image-editor';
export { imageKeys } from './api/images-api';
export { IMAGE_PATHS } from './paths';
