/** Longest name kept, in UTF-16 code units. */
const MAX_NAME_LENGTH = 200;
/** An extension kept when a long name is cut: a dot and up to 16 characters that are neither dots nor spaces. */
const EXTENSION = /\.[^.\s]{1,16}$/u;

/**
 * Invisible characters that change how a name reads without being seen: bidirectional controls (with U+202E after
 * "invoice", "invoicefdp.exe" reads as "invoiceexe.pdf"), zero-width characters, word joiners, the byte-order mark,
 * the soft hyphen, and the deprecated formatting and interlinear annotation controls.
 */
function isInvisible(codePoint: number): boolean {
  return (
    codePoint === 0x00ad ||
    codePoint === 0x061c ||
    codePoint === 0x180e ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2060 && codePoint <= 0x206f) ||
    codePoint === 0xfeff ||
    (codePoint >= 0xfff9 && codePoint <= 0xfffb)
  );
}

/** Tab, line feed, vertical tab, form feed, carriage return and NEL separate words: they become spaces. */
function isSpacingControl(codePoint: number): boolean {
  return (codePoint >= 0x09 && codePoint <= 0x0d) || codePoint === 0x85;
}

function isControl(codePoint: number): boolean {
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/**
 * A file name that is safe to store and to show: NFC, no control or invisible formatting characters, no lone
 * surrogates, no path separators, single spaces, no leading or trailing spaces and dots, at most 200 UTF-16 code units
 * (the extension survives the cut). `fallback` when nothing is left.
 */
export function safeFileName(name: string, fallback: string): string {
  let cleaned = '';
  // for…of walks code points: a surrogate pair arrives whole, so any surrogate seen alone here is a lone one.
  for (const char of name.normalize('NFC')) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (isSpacingControl(codePoint)) cleaned += ' ';
    else if (char === '/' || char === '\\') cleaned += '_';
    else if (!isControl(codePoint) && !isInvisible(codePoint) && !(codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      cleaned += char;
    }
  }
  const trimmed = trimName(cleaned.replace(/\s+/gu, ' '));
  return trimmed === '' ? fallback : cutName(trimmed);
}

/**
 * A Content-Disposition header value carrying the name twice (RFC 6266): `filename` as printable ASCII for old
 * clients, `filename*` as UTF-8 (RFC 5987) for the rest. The name is made safe first, so names stored before
 * `safeFileName` existed cannot carry bidirectional controls or line breaks into the header.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const safe = safeFileName(name, 'file');
  const ascii = safeFileName(
    Array.from(safe, (char) => (char >= ' ' && char <= '~' ? char : '_'))
      .join('')
      .replace(/["\\]/g, ''),
    'file',
  );
  const encoded = encodeURIComponent(safe).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function trimName(name: string): string {
  return name.replace(/^[\s.]+|[\s.]+$/gu, '');
}

function cutName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const extension = EXTENSION.exec(name)?.[0] ?? '';
  let base = name.slice(0, MAX_NAME_LENGTH - extension.length);
  // Do not leave half of a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(base)) base = base.slice(0, -1);
  return trimName(base) + extension;
}
