import type { ReplySite } from '../shared/types.js';
import { match, meta } from './linkedin.match.js';
import { findReplyTargets, insertText, readContext } from './linkedin.page.js';

export { match, matches, meta } from './linkedin.match.js';
export { findReplyTargets, insertText, readContext, selectors } from './linkedin.page.js';

export const linkedin: ReplySite = { ...meta, match, findReplyTargets, readContext, insertText };
