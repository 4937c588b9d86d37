import type { MailSummarySite, ReplySite } from '../shared/types.js';
import { match, meta } from './gmail.match.js';
import { findReplyTargets, findSummaryAnchor, insertText, readContext, readForSummary } from './gmail.page.js';

export { match, matches, meta } from './gmail.match.js';
export {
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  selectors,
} from './gmail.page.js';

export const gmail: ReplySite & MailSummarySite = {
  ...meta,
  match,
  findReplyTargets,
  readContext,
  insertText,
  findSummaryAnchor,
  readForSummary,
};
