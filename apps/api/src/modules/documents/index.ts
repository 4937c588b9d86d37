export { contentDisposition, safeFileName } from './file-name.js';
export { estimateTokens } from './retrieval.js';
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
