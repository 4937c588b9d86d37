import type { ReplySite } from '../shared/types.js';
import { match, meta } from './facebook.match.js';
import { findReplyTargets, insertText, readContext } from './facebook.page.js';

export { match, matches, meta } from './facebook.match.js';
export { findReplyTargets, insertText, readContext, selectors } from './facebook.page.js';

export const facebook: ReplySite = { ...meta, match, findReplyTargets, readContext, insertText };
