import { DomainError } from '../../lib/errors.js';
import {
  asciiBytes,
  readUint16BE,
  readUint16LE,
  readUint32BE,
  readUint32LE,
  startsWith,
  startsWithText,
} from './bytes.js';
import { JPEG_MARKER, type JpegPart, jpegParts } from './jpeg-segments.js';
import type { ImageMediaType } from './sniff.js';

/**
 * The image without the metadata that can say who took it, where and with what (Exif with GPS, XMP, IPTC, comments,
 * text chunks), and without bytes appended after its end. Pixels are never re-encoded: the compressed image data is
 * copied byte for byte. What decides how the picture looks stays: colour profiles, colour transforms, transparency,
 * animation, and the Exif orientation of a JPEG or PNG, rewritten as a minimal Exif block holding nothing else.
 *
 * Throws INVALID_FILE when the file's structure cannot be walked.
 */
export function stripImageMetadata(bytes: Uint8Array, mediaType: ImageMediaType): Buffer {
  switch (mediaType) {
    case 'image/jpeg':
      return stripJpeg(bytes);
    case 'image/png':
      return stripPng(bytes);
    case 'image/webp':
      return stripWebp(bytes);
    case 'image/gif':
      return stripGif(bytes);
  }
}

// --- JPEG ---

function stripJpeg(bytes: Uint8Array): Buffer {
  const parts = [...jpegParts(bytes)];
  const firstScan = parts.findIndex((part) => part.kind === 'marker' && part.marker === JPEG_MARKER.SOS);
  if (firstScan === -1) throw new DomainError('INVALID_FILE');

  let orientation: number | null = null;
  for (const part of parts.slice(0, firstScan)) {
    if (orientation === null && part.kind === 'marker' && part.marker === JPEG_MARKER.APP1) {
      const payload = bytes.subarray(part.start + 4, part.end);
      if (startsWith(payload, EXIF_HEADER)) orientation = tiffOrientation(payload.subarray(EXIF_HEADER.length));
    }
  }

  const kept = parts.filter((part) => keepJpegPart(bytes, part)).map((part) => bytes.subarray(part.start, part.end));
  if (orientation !== null) {
    // Exif belongs right after SOI, or after the JFIF APP0 when there is one (as libjpeg and exiftool write it).
    let at = 0;
    while (at < kept.length && kept[at]?.[1] === JPEG_MARKER.APP0) at++;
    kept.splice(at, 0, orientationExifSegment(orientation));
  }
  // Parts stop at EOI: anything appended after it (a second image with its own Exif, a video) is left behind.
  return Buffer.concat([Uint8Array.of(0xff, JPEG_MARKER.SOI), ...kept]);
}

function keepJpegPart(bytes: Uint8Array, part: JpegPart): boolean {
  if (part.kind === 'scan-data') return true;
  const payload = bytes.subarray(part.start + 4, part.end);
  switch (part.marker) {
    case JPEG_MARKER.APP0:
      // JFIF stays; a JFXX extension only carries a thumbnail, which can show what was cropped out.
      return !startsWithText(payload, 'JFXX\0');
    case JPEG_MARKER.APP2:
      // ICC profiles stay; other APP2 (MPF, which indexes the images appended after EOI, FlashPix) go.
      return startsWithText(payload, 'ICC_PROFILE\0');
    case JPEG_MARKER.APP14:
      return true; // Adobe: says whether the components are RGB or YCbCr; colours break without it.
    case JPEG_MARKER.COM:
      return false;
    default:
      // APP1 (Exif, XMP), APP3–APP13 (APP13 is Photoshop/IPTC), APP15.
      return part.marker < JPEG_MARKER.APP0 || part.marker > 0xef;
  }
}

const EXIF_HEADER = asciiBytes('Exif\0\0');
const ORIENTATION_TAG = 0x0112;
const TIFF_SHORT = 3;

/** The Orientation (2–8) in the first IFD of Exif's TIFF structure; null when absent, 1 (normal) or unreadable. */
function tiffOrientation(tiff: Uint8Array): number | null {
  const littleEndian = startsWithText(tiff, 'II');
  if (!littleEndian && !startsWithText(tiff, 'MM')) return null;
  const u16 = (at: number) => (littleEndian ? readUint16LE(tiff, at) : readUint16BE(tiff, at));
  const u32 = (at: number) => (littleEndian ? readUint32LE(tiff, at) : readUint32BE(tiff, at));
  if (tiff.length < 8 || u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    // One SHORT fits in the entry's 4-byte value field, left-aligned in either byte order.
    if (u16(entry + 2) !== TIFF_SHORT || u32(entry + 4) < 1) return null;
    const value = u16(entry + 8);
    return value >= 2 && value <= 8 ? value : null;
  }
  return null;
}

/** A big-endian TIFF structure whose only IFD holds a single Orientation entry. */
function orientationTiff(orientation: number): number[] {
  return [
    ...[0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08], // "MM", 42, IFD0 at offset 8
    ...[0x00, 0x01], // one entry
    ...[0x01, 0x12, 0x00, TIFF_SHORT, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00],
    ...[0x00, 0x00, 0x00, 0x00], // no next IFD
  ];
}

/** APP1 with "Exif\0\0" and the minimal orientation TIFF. */
function orientationExifSegment(orientation: number): Uint8Array {
  const tiff = orientationTiff(orientation);
  const length = 2 + EXIF_HEADER.length + tiff.length;
  return Uint8Array.from([0xff, JPEG_MARKER.APP1, length >> 8, length & 0xff, ...EXIF_HEADER, ...tiff]);
}

// --- PNG ---

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

function stripPng(bytes: Uint8Array): Buffer {
  if (!startsWith(bytes, PNG_SIGNATURE)) throw new DomainError('INVALID_FILE');
  const kept: Uint8Array[] = [bytes.subarray(0, PNG_SIGNATURE.length)];
  let orientation: number | null = null;
  let pos = PNG_SIGNATURE.length;
  for (;;) {
    // Length (4), type (4), data, CRC (4). A file that ends before IEND was cut off.
    if (pos + 12 > bytes.length) throw new DomainError('INVALID_FILE');
    const length = readUint32BE(bytes, pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > bytes.length || !/^[A-Za-z]{4}$/.test(type)) throw new DomainError('INVALID_FILE');
    if (pos === PNG_SIGNATURE.length && type !== 'IHDR') throw new DomainError('INVALID_FILE');
    if (!PNG_METADATA_CHUNKS.has(type)) kept.push(bytes.subarray(pos, end));
    if (type === 'eXIf' && orientation === null) {
      // Browsers apply eXIf's orientation to PNGs too. Some writers keep JPEG's "Exif\0\0" prefix here.
      const data = bytes.subarray(pos + 8, end - 4);
      orientation = tiffOrientation(startsWith(data, EXIF_HEADER) ? data.subarray(EXIF_HEADER.length) : data);
    }
    pos = end;
    if (type === 'IEND') {
      // eXIf must come before the image data; right after IHDR always is.
      if (orientation !== null) kept.splice(2, 0, pngChunk('eXIf', orientationTiff(orientation)));
      return Buffer.concat(kept);
    }
  }
}

function pngChunk(type: string, data: number[]): Uint8Array {
  const typeAndData = [...asciiBytes(type), ...data];
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.set(typeAndData, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return chunk;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: readonly number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// --- WebP ---

const WEBP_METADATA_CHUNKS = new Set(['EXIF', 'XMP ']);
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

function stripWebp(bytes: Uint8Array): Buffer {
  if (!startsWithText(bytes, 'RIFF') || !startsWithText(bytes, 'WEBP', 8)) throw new DomainError('INVALID_FILE');
  const riffEnd = 8 + readUint32LE(bytes, 4);
  if (riffEnd > bytes.length || riffEnd < 12 + 8) throw new DomainError('INVALID_FILE');

  const kept: Uint8Array[] = [];
  let pos = 12;
  while (pos < riffEnd) {
    // FourCC (4), size (4), data, and a pad byte when the size is odd.
    if (pos + 8 > riffEnd) throw new DomainError('INVALID_FILE');
    const fourCC = String.fromCharCode(...bytes.subarray(pos, pos + 4));
    const size = readUint32LE(bytes, pos + 4);
    const dataEnd = pos + 8 + size;
    if (dataEnd > riffEnd) throw new DomainError('INVALID_FILE');
    if (pos === 12 && !['VP8 ', 'VP8L', 'VP8X'].includes(fourCC)) throw new DomainError('INVALID_FILE');
    if (!WEBP_METADATA_CHUNKS.has(fourCC)) {
      const chunk = Uint8Array.from(bytes.subarray(pos, dataEnd));
      if (fourCC === 'VP8X' && size >= 1) chunk[8] = (chunk[8] ?? 0) & ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
      kept.push(chunk);
      if (size % 2 === 1) kept.push(Uint8Array.of(0));
    }
    // Some writers leave out the last chunk's pad byte; the loop ends either way.
    pos = dataEnd + (size % 2);
  }

  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

// --- GIF ---

/** Animation loop count (two spellings) and the ICC colour profile; XMP ("XMP DataXMP") and the rest go. */
const GIF_KEPT_APPLICATIONS = ['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012'];
const GIF_GRAPHIC_CONTROL = 0xf9;
const GIF_PLAIN_TEXT = 0x01;
const GIF_APPLICATION = 0xff;

function stripGif(bytes: Uint8Array): Buffer {
  if (!(startsWithText(bytes, 'GIF87a') || startsWithText(bytes, 'GIF89a'))) throw new DomainError('INVALID_FILE');
  // Header (6) and logical screen descriptor (7), then the global colour table if its flag is set.
  const headerEnd = 13 + colourTableSize(bytes[10]);
  if (headerEnd > bytes.length) throw new DomainError('INVALID_FILE');
  const kept: Uint8Array[] = [bytes.subarray(0, headerEnd)];
  let pos = headerEnd;
  // Without a trailer the file ends at the last block that is complete; decoders show it, and so does the copy.
  while (pos < bytes.length) {
    const introducer = bytes[pos];
    if (introducer === 0x3b) break;
    if (introducer === 0x2c) {
      // Image descriptor (10), local colour table, LZW minimum code size (1), then data sub-blocks.
      if (pos + 10 > bytes.length) throw new DomainError('INVALID_FILE');
      const dataStart = pos + 10 + colourTableSize(bytes[pos + 9]) + 1;
      const end = skipSubBlocks(bytes, dataStart);
      kept.push(bytes.subarray(pos, end));
      pos = end;
    } else if (introducer === 0x21) {
      // Extension: label (1), then sub-blocks; an application's first sub-block is its 8+3-byte identifier.
      const label = bytes[pos + 1];
      const end = skipSubBlocks(bytes, pos + 2);
      const keep =
        label === GIF_GRAPHIC_CONTROL ||
        label === GIF_PLAIN_TEXT ||
        (label === GIF_APPLICATION &&
          bytes[pos + 2] === 11 &&
          GIF_KEPT_APPLICATIONS.some((id) => startsWithText(bytes, id, pos + 3)));
      if (keep) kept.push(bytes.subarray(pos, end));
      pos = end;
    } else {
      throw new DomainError('INVALID_FILE');
    }
  }
  kept.push(Uint8Array.of(0x3b));
  return Buffer.concat(kept);
}

function colourTableSize(packed: number | undefined): number {
  if (packed === undefined || (packed & 0x80) === 0) return 0;
  return 3 * (2 << (packed & 0x07));
}

/** The position after the zero-length block that ends a run of sub-blocks starting at `from`. */
function skipSubBlocks(bytes: Uint8Array, from: number): number {
  let pos = from;
  for (;;) {
    const size = bytes[pos];
    if (size === undefined) throw new DomainError('INVALID_FILE');
    pos += 1 + size;
    if (size === 0) return pos;
  }
}
