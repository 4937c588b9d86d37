/**
 * Reading a `multipart/form-data` body (RFC 7578) that is already entirely in memory, in one pass over the Buffer.
 * A chat request is usually one JSON field of a few hundred bytes, sometimes with a small image; streaming it
 * through busboy's parser and @fastify/multipart's part iterator costs more than the whole body is worth. Large
 * bodies still stream through @fastify/multipart.
 *
 * What comes out is what busboy and @fastify/multipart give for the same bytes, with the same limits, except that
 * this parser refuses a malformed body (BAD_REQUEST) where busboy drops the malformed part, or the rest of its
 * headers, without a word: a body cut short, a part without the blank line after its headers, a header line without
 * a colon, too many header lines, a boundary line followed by anything but `--` or CRLF, a field over `fieldSize`
 * (which busboy cuts to the limit).
 *
 * The bytes of a file are a `subarray` of the body, not a copy: they share the body's memory, so whoever keeps
 * them keeps the whole body alive, and writing into either changes both.
 */

export type MultipartLimits = {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
  parts: number;
  headerPairs: number;
};

/** A file part. `bytes` shares the body's memory. */
export type ParsedPart = { fieldname: string; filename: string; mimeType: string; bytes: Buffer };

export class MultipartError extends Error {
  constructor(
    readonly code: 'FILE_TOO_LARGE' | 'TOO_MANY_FILES' | 'BAD_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE',
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'MultipartError';
  }
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const CRLF_CRLF = Buffer.from('\r\n\r\n');

/** RFC 2046 `bchars`: digits, letters, `'()+_,-./:=?` and space, which may not end the boundary. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary of a `multipart/form-data` content type, or null when it is another type or has no valid boundary. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const parsed = parseHeaderValue(contentType);
  if (!parsed || parsed.type.toLowerCase() !== 'multipart/form-data') return null;
  // The first `boundary` parameter counts, as in busboy.
  const boundary = parsed.params.find((p) => p.key === 'boundary' && !p.extended)?.value;
  return boundary !== undefined && BOUNDARY.test(boundary) ? boundary : null;
}

/**
 * Fields by name (a repeated name keeps its last value) and files in body order, or a MultipartError.
 *
 * The body is a preamble, then parts each introduced by a `--boundary` line, then `--boundary--` and an epilogue;
 * the preamble and the epilogue are ignored. A part with no Content-Disposition, one that is not `form-data`, or
 * one without a name is counted against the limits but not returned, as busboy skips it. An empty body is an empty
 * form, as @fastify/multipart makes it.
 */
export function parseMultipart(
  body: Buffer,
  boundary: string,
  limits: MultipartLimits,
): { fields: Record<string, string>; files: ParsedPart[] } {
  const fields: Record<string, string> = {};
  const files: ParsedPart[] = [];
  if (body.length === 0) return { fields, files };

  // Every boundary line but a first one at the very start of the body follows a CRLF, which belongs to it.
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const dashBoundary = delimiter.subarray(2);
  const first = body.subarray(0, dashBoundary.length).equals(dashBoundary) ? 0 : body.indexOf(delimiter);
  if (first === -1) throw bad('no boundary line');
  // Just after the `--boundary` that opens the next part, or closes the body.
  let pos = first === 0 ? dashBoundary.length : first + delimiter.length;
  let parts = 0;
  let fileCount = 0;
  let fieldCount = 0;

  for (;;) {
    if (pos + 2 > body.length) throw bad('the body ends inside a boundary line');
    if (body[pos] === DASH && body[pos + 1] === DASH) return { fields, files };
    if (body[pos] !== CR || body[pos + 1] !== LF) throw bad('a boundary line goes on after the boundary');
    if (++parts > limits.parts) throw bad('too many parts');

    // The part runs from the CRLF after its boundary line to the CRLF before the next one.
    const end = body.indexOf(delimiter, pos);
    if (end === -1) throw bad('the body ends without its closing boundary');
    // Headers are the lines up to the first blank line; with no headers at all, that blank line is the one at `pos`.
    const headersEnd = body.indexOf(CRLF_CRLF, pos);
    if (headersEnd === -1 || headersEnd + 4 > end) throw bad('a part has no blank line after its headers');
    const headers = readHeaders(body.toString('latin1', pos + 2, Math.max(pos + 2, headersEnd)), limits.headerPairs);
    const content = body.subarray(headersEnd + 4, end);
    pos = end + delimiter.length;

    const disposition = headers.disposition === undefined ? null : parseHeaderValue(headers.disposition);
    if (!disposition || disposition.type.toLowerCase() !== 'form-data') continue;
    const name = param(disposition.params, 'name');
    let filename = param(disposition.params, 'filename');
    // busboy skips a part whose name or filename holds a line break (only a `*=` value can carry one here).
    if (hasLineBreak(name) || hasLineBreak(filename)) continue;

    const declaredType = headers.type === undefined ? '' : mediaType(headers.type);
    // busboy's rule: a part with a filename, even an empty one, or declared as application/octet-stream is a file.
    if (filename !== undefined || declaredType === 'application/octet-stream') {
      if (++fileCount > limits.files) throw new MultipartError('TOO_MANY_FILES');
      if (name !== undefined) checkName(name);
      if (content.length > limits.fileSize) throw new MultipartError('FILE_TOO_LARGE');
      if (name === undefined) continue;
      filename = filename === undefined ? '' : basename(filename);
      // A file that declares no type is of no known type (busboy calls it text/plain, the default of a field).
      files.push({ fieldname: name, filename, mimeType: declaredType || 'application/octet-stream', bytes: content });
    } else {
      if (++fieldCount > limits.fields) throw bad('too many fields');
      if (name !== undefined) checkName(name);
      if (content.length > limits.fieldSize) throw bad('a field is too long');
      if (name === undefined) continue;
      // Always UTF-8: busboy would honour a `charset` on the part's Content-Type, which browsers never send.
      fields[name] = content.toString('utf8');
    }
  }
}

function bad(message: string) {
  return new MultipartError('BAD_REQUEST', message);
}

/** @fastify/multipart refuses a name that would reach the object's prototype (`__proto__`, `constructor`, …). */
function checkName(name: string) {
  if (name in Object.prototype) throw bad('a part is named after a property of Object.prototype');
}

function hasLineBreak(value: string | undefined) {
  return value !== undefined && (value.includes('\r') || value.includes('\n'));
}

/**
 * The two headers a part is read by, from its header lines (each byte one latin1 character, so that a value's
 * non-ASCII bytes can be decoded as UTF-8 afterwards). Names are case-insensitive; the first of a repeated header
 * counts, as in busboy; a line starting with a space or a tab continues the previous header (obsolete folding).
 */
function readHeaders(block: string, maxPairs: number) {
  const headers: { disposition?: string; type?: string } = {};
  let current: keyof typeof headers | null = null;
  let pairs = 0;
  for (let start = 0; start < block.length;) {
    let stop = block.indexOf('\r\n', start);
    if (stop === -1) stop = block.length;
    const line = block.slice(start, stop);
    start = stop + 2;
    if (line.includes('\r') || line.includes('\n')) throw bad('a header line holds a bare line break');
    if (pairs > 0 && (line[0] === ' ' || line[0] === '\t')) {
      if (current) headers[current] += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw bad('a header line has no name and colon');
    if (++pairs > maxPairs) throw bad('too many header lines');
    const name = line.slice(0, colon).toLowerCase();
    const key = name === 'content-disposition' ? 'disposition' : name === 'content-type' ? 'type' : null;
    current = key && headers[key] === undefined ? key : null;
    if (current) headers[current] = line.slice(colon + 1);
  }
  return headers;
}

type Param = { key: string; value: string; extended: boolean };

/**
 * A header value of the form `type; key=value; key="quoted \"value\""; key*=charset'lang'percent%20encoded`
 * (RFC 7231, RFC 8187): the type and the parameters in order, keys lowercased and without their `*`. Plain values
 * are decoded as UTF-8 (browsers send raw UTF-8 names); null when a quoted string is not closed.
 */
function parseHeaderValue(value: string): { type: string; params: Param[] } | null {
  let semicolon = value.indexOf(';');
  if (semicolon === -1) semicolon = value.length;
  const type = value.slice(0, semicolon).trim();
  const params: Param[] = [];
  let i = semicolon + 1;
  while (i < value.length) {
    let stop = i;
    while (stop < value.length && value[stop] !== '=' && value[stop] !== ';') stop++;
    let key = value.slice(i, stop).trim().toLowerCase();
    i = stop + 1;
    if (value[stop] !== '=') continue; // a parameter without a value, or an empty one between two semicolons
    while (value[i] === ' ' || value[i] === '\t') i++;
    let raw = '';
    if (value[i] === '"') {
      for (i++; ; i++) {
        if (i >= value.length) return null;
        const c = value[i];
        if (c === '"') break;
        // Only `\"` and `\\` are escapes: browsers send a backslash in a filename as it is, and busboy keeps it.
        if (c === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) i++;
        raw += value[i];
      }
      // Whatever follows the closing quote up to the next semicolon is ignored, as busboy does.
      stop = value.indexOf(';', i);
      i = stop === -1 ? value.length : stop + 1;
    } else {
      stop = value.indexOf(';', i);
      if (stop === -1) stop = value.length;
      raw = value.slice(i, stop).trim();
      i = stop + 1;
    }
    const extended = key.endsWith('*');
    if (extended) {
      key = key.slice(0, -1);
      const decoded = decodeExtended(raw);
      if (decoded !== null) params.push({ key, value: decoded, extended });
    } else {
      params.push({ key, value: utf8(raw), extended });
    }
  }
  return { type, params };
}

/**
 * A parameter's value: the last `key*=` one if any (RFC 6266: it is there for the receivers that understand it),
 * else the last `key=` one. busboy takes the last of either kind, and in its fast path ignores a `filename*` after a
 * `filename`.
 */
function param(params: Param[], key: string) {
  let plain: string | undefined;
  let extended: string | undefined;
  for (const p of params) {
    if (p.key !== key) continue;
    if (p.extended) extended = p.value;
    else plain = p.value;
  }
  return extended ?? plain;
}

/** `charset'language'percent-encoded` (RFC 8187); null for a malformed value or a charset TextDecoder lacks. */
function decodeExtended(raw: string): string | null {
  const charsetEnd = raw.indexOf("'");
  const languageEnd = charsetEnd === -1 ? -1 : raw.indexOf("'", charsetEnd + 1);
  if (languageEnd === -1) return null;
  const charset = raw.slice(0, charsetEnd).toLowerCase();
  const bytes = Buffer.from(
    raw
      .slice(languageEnd + 1)
      .replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  if (charset === 'utf-8' || charset === 'utf8') return bytes.toString('utf8');
  if (charset === 'iso-8859-1' || charset === 'latin1' || charset === 'us-ascii') return bytes.toString('latin1');
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return null;
  }
}

/** The characters of a latin1-decoded header value, read again as the UTF-8 they were sent in. */
function utf8(latin1: string) {
  for (let i = 0; i < latin1.length; i++) {
    if (latin1.charCodeAt(i) > 0x7f) return Buffer.from(latin1, 'latin1').toString('utf8');
  }
  return latin1;
}

/** `type/subtype` of a Content-Type, lowercased and without parameters, as busboy reports it; '' when empty. */
function mediaType(value: string) {
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** The last segment of a path sent as a filename (`C:\dir\a.png` → `a.png`); `.` and `..` are no name, as in busboy. */
function basename(path: string) {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const name = cut === -1 ? path : path.slice(cut + 1);
  return name === '.' || name === '..' ? '' : name;
}
