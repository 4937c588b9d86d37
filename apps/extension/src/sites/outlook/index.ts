import type { MailSummarySite, ReplySite } from '../shared/types.js';
import { match, meta } from './outlook.match.js';
import { findReplyTargets, findSummaryAnchor, insertText, readContext, readForSummary } from './outlook.page.js';

export { match, matches, meta } from './outlook.match.js';
export {
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  selectors,
} from './outlook.page.js';

export const outlook: ReplySite & MailSummarySite = {
  ...meta,
  match,
  findReplyTargets,
  readContext,
  insertText,
  findSummaryAnchor,
  readForSummary,
};
