import type { ReplySite } from '../shared/types.js';
import { match, meta } from './instagram.match.js';
import { findReplyTargets, insertText, readContext } from './instagram.page.js';

export { match, matches, meta } from './instagram.match.js';
export { findReplyTargets, insertText, readContext, selectors } from './instagram.page.js';

export const instagram: ReplySite = { ...meta, match, findReplyTargets, readContext, insertText };
