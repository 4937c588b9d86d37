import type { MailEditorSite, MailSummarySite, ReplySite } from '../shared/types.js';
import { match, meta } from './outlook.match.js';
import {
  accountAddress,
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  signatureSlot,
} from './outlook.page.js';

export { match, matches, meta } from './outlook.match.js';
export {
  accountAddress,
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  selectors,
  signatureSlot,
} from './outlook.page.js';

export const outlook: ReplySite & MailSummarySite & MailEditorSite = {
  ...meta,
  match,
  findReplyTargets,
  readContext,
  insertText,
  findSummaryAnchor,
  readForSummary,
  signatureSlot,
  accountAddress,
};
