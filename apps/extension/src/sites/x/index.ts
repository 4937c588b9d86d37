import type { ReplySite } from '../shared/types.js';
import { match, meta } from './x.match.js';
import { findReplyTargets, insertText, readContext } from './x.page.js';

export { match, matches, meta } from './x.match.js';
export { findReplyTargets, insertText, readContext, selectors } from './x.page.js';

export const x: ReplySite = { ...meta, match, findReplyTargets, readContext, insertText };
