import { engineOf, match, meta } from './search.match.js';
import { findResultsColumn, readQuery, readResults } from './search.page.js';

export { engineOf, match, matches, meta, type SearchEngine } from './search.match.js';
export { findResultsColumn, readQuery, readResults, type SearchResult } from './search.page.js';

export const search = { ...meta, match, engineOf, readQuery, findResultsColumn, readResults };
