export { contentDisposition, safeFileName } from './file-name.js';
export { estimateTokens } from './retrieval.js';
export { checkImagePixels, imageDimensions, type ImageDimensions, type ImageLimits } from './image.js';
export { sniffFile, type ImageMediaType } from './sniff.js';
export {
  createDocumentTools,
  pageDocument,
  paginate,
  readSource,
  type BuildDocumentContext,
  type DocumentTools,
  type SourceDocument,
  type Transcript,
} from './tools.js';
