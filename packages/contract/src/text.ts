import { z } from 'zod';
import { cleanLine, cleanText } from './clean.js';

export { cleanLine, cleanText };

/** `z.string()` for multi-line text, cleaned (see `cleanText`); chain bounds after it. */
export const text = () => z.string().overwrite(cleanText);

/** `z.string()` for one line, cleaned (see `cleanLine`); chain bounds after it. */
export const line = () => z.string().overwrite(cleanLine);

/**
 * An http(s) URL, normalized by the URL parser: the parser accepts control characters inside a URL (and percent-
 * encodes them), the database would not have accepted them raw.
 */
export const httpUrl = (max = 2048) => z.url({ protocol: /^https?$/, normalize: true }).max(max);
