import type { MailEditorSite, MailSummarySite, ReplySite } from '../shared/types.js';
import { match, meta } from './gmail.match.js';
import {
  accountAddress,
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  signatureSlot,
} from './gmail.page.js';

export { match, matches, meta } from './gmail.match.js';
export {
  accountAddress,
  findReplyTargets,
  findSummaryAnchor,
  insertText,
  readContext,
  readForSummary,
  selectors,
  signatureSlot,
} from './gmail.page.js';

export const gmail: ReplySite & MailSummarySite & MailEditorSite = {
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
