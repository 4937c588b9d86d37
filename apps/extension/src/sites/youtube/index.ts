import type { ReplySite, VideoSummarySite } from '../shared/types.js';
import { match, meta } from './youtube.match.js';
import { findReplyTargets, findSummaryAnchor, insertText, readContext, readForSummary } from './youtube.page.js';

export { match, matches, meta } from './youtube.match.js';
export {
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  selectors,
} from './youtube.page.js';

export const youtube: ReplySite & VideoSummarySite = {
  ...meta,
  match,
  findReplyTargets,
  readContext,
  insertText,
  findSummaryAnchor,
  readForSummary,
};
