export { createImageRegistry, type ImageRegistryOptions } from './registry.js';
export {
  ImageRefusedError,
  type ImageAdapter,
  type ImageBytes,
  type ImageRegistry,
  type OwnImageKey,
} from './types.js';
