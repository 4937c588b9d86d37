/** The HTML spec's order: a byte-order mark, then the HTTP header, then a <meta> in the first 1024 bytes, then UTF-8. */
export function detectCharset(body: Buffer, contentType: string): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (fromHeader && isKnown(fromHeader)) return fromHeader.toLowerCase();
  // latin1 maps bytes one to one, so an ASCII <meta> is found whatever the real encoding is.
  const head = body.subarray(0, 1024).toString('latin1');
  const fromMeta = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  // A page that says utf-16 in a <meta> cannot be, since we just read that <meta> as ASCII (same rule as browsers).
  if (fromMeta && isKnown(fromMeta)) return /^utf-16/i.test(fromMeta) ? 'utf-8' : fromMeta.toLowerCase();
  return 'utf-8';
}

function isKnown(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** Decodes with WHATWG labels, so "iso-8859-1" means windows-1252 exactly as in browsers. */
export function decodeText(body: Buffer, contentType: string): string {
  return new TextDecoder(detectCharset(body, contentType)).decode(body);
}
