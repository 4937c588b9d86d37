const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

function fromCodePoint(code: number, original: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
    ? String.fromCodePoint(code)
    : original;
}

/** Decodes the HTML entities third-party text actually carries (numeric, and the handful of common named ones), once. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (original, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return fromCodePoint(parseInt(lower.slice(2), 16), original);
    if (lower.startsWith('#')) return fromCodePoint(parseInt(lower.slice(1), 10), original);
    return NAMED[lower] ?? original;
  });
}
