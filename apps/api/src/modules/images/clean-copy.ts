import { crc32 } from 'node:zlib';

/**
 * PNG and JPEG files without their metadata, copied chunk by chunk (segment by segment) instead of decoded and
 * re-encoded: the compressed pixels are kept byte for byte, so nothing is lost and no time goes to encoding. What is
 * kept is what draws the picture (PNG: IHDR, PLTE, tRNS, IDAT, IEND; JPEG: the JFIF and Adobe markers, tables, frame
 * and scans); everything else goes (Exif and its GPS, XMP, IPTC, comments, text chunks, thumbnails, animation
 * frames), and so does anything after the end of the image.
 *
 * A copy is made only of a plain file: 8-bit or less, no colour profile, no orientation to apply, grey or RGB (no
 * CMYK), a baseline or progressive Huffman JPEG (what every browser draws). Anything else — and any structure this
 * reader does not follow, a file cut short included — answers null, and the caller re-encodes with sharp, which
 * turns, converts to sRGB, and refuses what does not decode. A copy is not proof that its pixels decode: the caller
 * decodes it before keeping it.
 *
 * Bytes inside the compressed data are copied as they are, so a file that is also a web page there (markup in a
 * PNG's zlib stream or a JPEG's scan, which decoders read as pixels) would stay one: a copy with anything like an
 * HTML or SVG tag in it is not made either, and re-encoding scrambles it. (The files are served as images, with
 * nosniff and a sandboxing CSP, besides.)
 */
export type CleanCopy = {
  bytes: Buffer;
  width: number;
  height: number;
  /** Some pixels may be see-through (a PNG with an alpha channel or a tRNS chunk); decoding tells whether any is. */
  alpha: boolean;
};

// --- PNG ---

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Critical chunks, and tRNS (transparency): the picture itself. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS']);
/** A colour profile or colour space (to convert), or Exif (may carry an orientation to apply): left to sharp. */
const PNG_REENCODE = new Set(['iCCP', 'cICP', 'eXIf']);

/**
 * What the copy may do with the caller's bytes. With `reuse`, they are the caller's own and not read again (a
 * provider's answer): when something must go, the copy is made in their memory — the few bytes kept before the image
 * data moved up against it, instead of megabytes of image data copied after them — and the bytes given are no longer
 * a whole file. Without it (the default), they are left as they are.
 */
export type CleanOptions = { reuse?: boolean };

export function cleanPng(bytes: Uint8Array, { reuse = false }: CleanOptions = {}): CleanCopy | null {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.length < 8 || !file.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  // Every kept piece is a view of the file (see `assembled`).
  const kept: Buffer[] = [file.subarray(0, 8)];
  let header: { width: number; height: number; colourType: number } | null = null;
  let transparency = false;
  let pos = 8;
  for (;;) {
    // Length (4), type (4), data, CRC (4).
    if (pos + 12 > file.length) return null;
    const length = file.readUInt32BE(pos);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > file.length) return null;
    const type = file.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return null;
    if (header === null) {
      if (type !== 'IHDR' || length !== 13) return null;
      const [depth, colourType, compression, filter, interlace] = file.subarray(pos + 16, pos + 21);
      // 16-bit samples are brought to 8 bits by sharp (browsers differ on them).
      if (!depth || depth > 8 || compression !== 0 || filter !== 0 || interlace! > 1) return null;
      header = { width: file.readUInt32BE(pos + 8), height: file.readUInt32BE(pos + 12), colourType: colourType! };
    }
    if (PNG_REENCODE.has(type)) return null;
    if (PNG_KEPT.has(type)) {
      // A kept chunk must be whole: its CRC is checked here (the decoder checks the compressed data too).
      if (crc32(file.subarray(pos + 4, end - 4)) !== file.readUInt32BE(end - 4)) return null;
      kept.push(file.subarray(pos, end));
      if (type === 'tRNS') transparency = true;
    } else if (type.charCodeAt(0) < 0x61) {
      return null; // a critical chunk this reader does not know: not a plain PNG
    }
    pos = end;
    if (type === 'IEND') break;
  }
  const { width, height, colourType } = header;
  const copy = assembled(file, kept, pos, reuse);
  if (!copy) return null;
  return { bytes: copy, width, height, alpha: colourType === 4 || colourType === 6 || transparency };
}

/**
 * Whether a PNG may have see-through pixels: an alpha channel (grey or RGB with alpha), or a tRNS chunk before the
 * image data. Read from the chunk headers only; true when they cannot be followed (the decoder will tell).
 */
export function pngMayHaveAlpha(bytes: Uint8Array): boolean {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.length < 33 || !file.subarray(0, 8).equals(PNG_SIGNATURE) || file.toString('latin1', 12, 16) !== 'IHDR') {
    return true;
  }
  const colourType = file[25];
  if (colourType === 4 || colourType === 6) return true;
  for (let pos = 33; pos + 8 <= file.length; pos += 12 + file.readUInt32BE(pos)) {
    const type = file.toString('latin1', pos + 4, pos + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
  }
  return true;
}

// --- JPEG ---

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
/** Baseline, extended and progressive Huffman frames. The others (lossless, hierarchical, arithmetic) go to sharp. */
const PLAIN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Huffman and quantization tables, restart interval: kept as they are. */
const TABLES = new Set([0xc4, 0xdb, 0xdd]);

const startsWith = (data: Uint8Array, text: string) =>
  data.length >= text.length && Buffer.from(data.buffer, data.byteOffset, text.length).toString('latin1') === text;

export function cleanJpeg(bytes: Uint8Array, { reuse = false }: CleanOptions = {}): CleanCopy | null {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file[0] !== 0xff || file[1] !== SOI) return null;
  const kept: Buffer[] = [file.subarray(0, 2)];
  let frame: { width: number; height: number } | null = null;
  let scans = 0;
  let pos = 2;
  for (;;) {
    // Fill bytes (0xFF) may come before a marker; anything else between segments is damage: left to sharp.
    if (file[pos] !== 0xff) return null;
    while (file[pos] === 0xff) pos++;
    const marker = file[pos];
    // A marker without a length (TEM, a restart) outside a scan, or a second SOI: not a plain JPEG.
    if (marker === undefined || marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= SOI)) return null;
    pos++;
    if (marker === EOI) {
      if (!frame || scans === 0) return null;
      kept.push(file.subarray(pos - 2, pos)); // FF D9, the last fill byte and the marker
      break; // what follows the image is not copied
    }
    if (pos + 2 > file.length) return null;
    const length = file.readUInt16BE(pos);
    const end = pos + length;
    if (length < 2 || end > file.length) return null;
    const segment = file.subarray(pos - 2, end);
    const payload = file.subarray(pos + 2, end);
    if (PLAIN_FRAMES.has(marker)) {
      // Precision (1), height (2), width (2), components (1): 8-bit grey or three components (YCbCr, or RGB).
      if (frame || payload.length < 6 || payload[0] !== 8) return null;
      const height = payload.readUInt16BE(1);
      const width = payload.readUInt16BE(3);
      if (!width || !height || (payload[5] !== 1 && payload[5] !== 3)) return null;
      frame = { width, height };
      kept.push(segment);
    } else if (TABLES.has(marker)) {
      kept.push(segment);
    } else if (marker === SOS) {
      if (!frame) return null;
      const dataEnd = scanDataEnd(file, end);
      if (dataEnd === null) return null; // cut off inside the scan
      kept.push(file.subarray(pos - 2, dataEnd));
      scans++;
      pos = dataEnd;
      continue;
    } else if (marker === APP0) {
      // JFIF stays (it says the components are YCbCr), without the thumbnail it may carry (which can show what was
      // cropped out); its JFXX extension is a thumbnail too, and goes.
      if (startsWith(payload, 'JFIF\0')) {
        if (payload.length < 14) return null;
        const thumbnail = payload.length > 14 || payload[12] !== 0 || payload[13] !== 0;
        kept.push(thumbnail ? Buffer.from([0xff, APP0, 0, 16, ...payload.subarray(0, 12), 0, 0]) : segment);
      }
    } else if (marker === APP1) {
      // Exif and XMP go; an orientation to apply (or Exif that cannot be read for one) is left to sharp.
      if (startsWith(payload, 'Exif\0\0') && exifOrientation(payload.subarray(6)) !== 1) return null;
    } else if (marker === APP2) {
      if (startsWith(payload, 'ICC_PROFILE\0')) return null;
    } else if (marker === APP14) {
      if (startsWith(payload, 'Adobe')) kept.push(segment); // whether the components are RGB or YCbCr
    } else if (!(marker > APP2 && marker <= 0xef) && marker !== 0xfe) {
      // Not an application segment or a comment (which go): a marker a plain JPEG does not have.
      return null;
    }
    pos = end;
  }
  const copy = assembled(file, kept, pos, reuse);
  if (!copy) return null;
  return { bytes: copy, width: frame.width, height: frame.height, alpha: false };
}

/** Tags a browser or an SVG or XML reader acts on, after `<`, in lower case; and declarations. */
const TAGS = ['script', 'html', 'svg', 'iframe', 'body', 'head', 'object', 'embed', 'img', 'meta', 'link', 'style'];
const DECLARATIONS = ['!doctype', '?xml'];
type Markup = { text: Buffer; delimited: boolean };
/** For each byte that may follow `<`, the markup that starts with it (letters in either case). */
const STARTING = (() => {
  const table: Markup[][] = Array.from({ length: 256 }, () => []);
  const add = (text: string, delimited: boolean) => {
    const entry = { text: Buffer.from(text, 'latin1'), delimited };
    const first = entry.text[0]!;
    table[first]!.push(entry);
    if (first >= 0x61 && first <= 0x7a) table[first - 0x20]!.push(entry);
  };
  for (const tag of TAGS) add(tag, true);
  for (const declaration of DECLARATIONS) add(declaration, false);
  return table;
})();
const DELIMITERS = new Set([0x3e, 0x2f, 0x20, 0x09, 0x0a, 0x0d]);

/**
 * Whether `<` is followed by one of TAGS (any case) and a space, `/` or `>`, or by `!doctype` or `?xml`. A best
 * effort against the usual polyglots, not a parser. Compressed data has a `<` every 256 bytes or so; one followed by
 * such a tag by chance is rare (a few files in 10,000 of 5 MB), and costs only a re-encode.
 */
function hasMarkup(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x3c); at !== -1; at = bytes.indexOf(0x3c, at + 1)) {
    for (const { text, delimited } of STARTING[bytes[at + 1] ?? 0]!) {
      let i = 1;
      while (i < text.length) {
        const b = bytes[at + 1 + i] ?? 0;
        if ((b >= 0x41 && b <= 0x5a ? b | 0x20 : b) !== text[i]) break;
        i++;
      }
      if (i < text.length) continue;
      if (!delimited || DELIMITERS.has(bytes[at + 1 + text.length] ?? 0)) return true;
    }
  }
  return false;
}

/**
 * The most bytes `assembled` moves in the caller's memory. Above it (something dropped after the image data, a JPEG
 * with fill bytes before its end), a plain copy costs no more than moving.
 */
const MOST_MOVED = 64 * 1024;

/** Where a view of `file` starts in it, or -1 when `piece` is not a view of it. */
function offsetIn(file: Buffer, piece: Buffer) {
  const at = piece.byteOffset - file.byteOffset;
  return piece.buffer === file.buffer && at >= 0 && at + piece.length <= file.length ? at : -1;
}

/**
 * The kept pieces as one file, or null when it holds markup (see `hasMarkup`). When they are the whole file up to
 * `end` (nothing to drop but what follows the image, the usual case for a provider's output), a view of it: a 25 MP
 * PNG is not copied. Else, with `reuse`, the pieces before the last run of adjacent ones (a PNG's signature and
 * header before its image data, a JPEG's tables before its scan: bytes, not megabytes) are moved, in the file's own
 * memory, up against that run, over what goes; without it, a copy.
 */
function assembled(file: Buffer, kept: Buffer[], end: number, reuse: boolean): Buffer | null {
  const length = kept.reduce((sum, piece) => sum + piece.length, 0);
  if (length === end) {
    const whole = file.subarray(0, end);
    return hasMarkup(whole) ? null : whole;
  }
  const offsets = kept.map((piece) => offsetIn(file, piece));
  let first = kept.length - 1;
  while (first > 0 && offsets[first - 1]! >= 0 && offsets[first - 1]! + kept[first - 1]!.length === offsets[first])
    first--;
  const runStart = offsets[first]!;
  const before = kept.slice(0, first);
  const moved = length - (end - runStart);
  if (
    !reuse ||
    offsets.includes(-1) ||
    offsets[kept.length - 1]! + kept.at(-1)!.length !== end ||
    moved > Math.min(runStart, MOST_MOVED)
  ) {
    const copy = Buffer.concat(kept, length);
    return hasMarkup(copy) ? null : copy;
  }
  // The markup check on what the file will be, before anything in it moves: the run, and the moved pieces with the
  // run's first bytes (a tag across where they meet is at most ten bytes long).
  const run = file.subarray(runStart, end);
  if (hasMarkup(run) || hasMarkup(Buffer.concat([...before, run.subarray(0, 16)]))) return null;
  // Last piece first: each goes to a place at or after its own, past every piece before it still to move.
  let to = runStart;
  for (let i = before.length - 1; i >= 0; i--) {
    to -= before[i]!.length;
    file.copyWithin(to, offsets[i]!, offsets[i]! + before[i]!.length);
  }
  return file.subarray(runStart - moved, end);
}

/**
 * Where the entropy-coded data from `from` ends: at the first marker that is not a stuffed byte (FF 00) or a restart
 * (FF D0–D7). Null when the file ends first.
 */
function scanDataEnd(file: Buffer, from: number): number | null {
  let at = from;
  for (;;) {
    const ff = file.indexOf(0xff, at);
    if (ff === -1) return null;
    let next = ff + 1;
    while (file[next] === 0xff) next++;
    const byte = file[next];
    if (byte === undefined) return null;
    if (byte !== 0x00 && (byte < 0xd0 || byte > 0xd7)) return ff;
    at = next + 1;
  }
}

/** The orientation in the first IFD of an Exif TIFF structure: 1 (normal) when absent, null when unreadable. */
function exifOrientation(tiff: Buffer): number | null {
  const little = startsWith(tiff, 'II');
  if ((!little && !startsWith(tiff, 'MM')) || tiff.length < 8) return null;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== 0x0112) continue;
    // One SHORT, left-aligned in the 4-byte value field in either byte order.
    return u16(entry + 2) === 3 ? u16(entry + 8) : null;
  }
  return 1;
}
