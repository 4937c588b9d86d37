/**
 * Text as it may enter Parley. PostgreSQL refuses NUL in text and unpaired surrogates in jsonb, and control or
 * bidirectional characters in a name can disguise what it says (`invoice\u202Efdp.exe`). Every string a request
 * carries is cleaned here, once, before it is validated: control characters are removed rather than refused, so a
 * paste with a stray control character still goes through.
 */

/* eslint-disable no-control-regex -- matching control characters is the point here */
/** C0 and C1 controls and DEL, except tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Every C0 and C1 control and DEL. */
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
/* eslint-enable no-control-regex */
/** Bidirectional embeddings, overrides, isolates and marks. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A surrogate without its pair (valid in a JavaScript string, not in UTF-8 or jsonb). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const wellFormed = (value: string) => value.replace(LONE_SURROGATE, '\uFFFD');

/** Multi-line text (a question, a page, a thread): tab and line breaks stay; unpaired surrogates become U+FFFD. */
export function cleanText(value: string): string {
  return wellFormed(value).replace(CONTROL, '');
}

/**
 * A single line shown to people (a name, a title, a shortcut): tabs and line breaks become spaces; other controls
 * and bidi controls go.
 */
export function cleanLine(value: string): string {
  return wellFormed(value)
    .replace(/[\t\n\r]+/g, ' ')
    .replace(ANY_CONTROL, '')
    .replace(BIDI, '');
}
