import { DomainError } from '../../lib/errors.js';
import {
  readUint16BE,
  readUint16LE,
  readUint24LE,
  readUint32BE,
  readUint32LE,
  startsWith,
  startsWithText,
} from './bytes.js';
import { isStartOfFrame, JPEG_MARKER, jpegParts } from './jpeg-segments.js';
import type { ImageMediaType } from './sniff.js';

export interface ImageDimensions {
  width: number;
  height: number;
}

export interface ImageLimits {
  maxSide: number;
  maxPixels: number;
}

/** Larger images are refused before they are stored: a small file can claim a huge canvas that decoders allocate. */
export const IMAGE_LIMITS: ImageLimits = { maxSide: 16384, maxPixels: 64_000_000 };

/**
 * The width and height an image's header declares, read without decoding any pixels; null when the header cannot be
 * read (wrong signature, cut off, a JPEG without a frame header before its first scan).
 */
export function imageDimensions(bytes: Uint8Array, mediaType: ImageMediaType): ImageDimensions | null {
  switch (mediaType) {
    case 'image/png':
      return pngDimensions(bytes);
    case 'image/jpeg':
      return jpegDimensions(bytes);
    case 'image/gif':
      return gifDimensions(bytes);
    case 'image/webp':
      return webpDimensions(bytes);
  }
}

/**
 * Refuses an image whose header could not be read or declares no pixels (INVALID_FILE), or that is larger than the
 * limits on either side or in total (IMAGE_TOO_LARGE). Returns the dimensions it checked.
 */
export function checkImagePixels(dims: ImageDimensions | null, limits: ImageLimits = IMAGE_LIMITS): ImageDimensions {
  if (!dims || dims.width === 0 || dims.height === 0) throw new DomainError('INVALID_FILE');
  const { width, height } = dims;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw new DomainError('IMAGE_TOO_LARGE', {
      width,
      height,
      maxMegapixels: limits.maxPixels / 1_000_000,
      maxSide: limits.maxSide,
    });
  }
  return dims;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngDimensions(bytes: Uint8Array): ImageDimensions | null {
  // Signature, then IHDR first: length 13, type, width and height as 32-bit big-endian.
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 24) return null;
  if (readUint32BE(bytes, 8) !== 13 || !startsWithText(bytes, 'IHDR', 12)) return null;
  return { width: readUint32BE(bytes, 16), height: readUint32BE(bytes, 20) };
}

function jpegDimensions(bytes: Uint8Array): ImageDimensions | null {
  try {
    for (const part of jpegParts(bytes)) {
      if (part.kind !== 'marker') continue;
      if (isStartOfFrame(part.marker)) {
        // FF Cn, length (2), sample precision (1), number of lines (2), samples per line (2), components (1).
        if (part.end - part.start < 10) return null;
        return { width: readUint16BE(bytes, part.start + 7), height: readUint16BE(bytes, part.start + 5) };
      }
      if (part.marker === JPEG_MARKER.SOS || part.marker === JPEG_MARKER.EOI) return null;
    }
    return null;
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

function gifDimensions(bytes: Uint8Array): ImageDimensions | null {
  if (!(startsWithText(bytes, 'GIF87a') || startsWithText(bytes, 'GIF89a')) || bytes.length < 10) return null;
  // The logical screen descriptor follows the 6-byte header: width and height, 16-bit little-endian.
  return { width: readUint16LE(bytes, 6), height: readUint16LE(bytes, 8) };
}

function webpDimensions(bytes: Uint8Array): ImageDimensions | null {
  if (!startsWithText(bytes, 'RIFF') || !startsWithText(bytes, 'WEBP', 8) || bytes.length < 20) return null;
  const size = readUint32LE(bytes, 16);
  const data = 20;
  if (startsWithText(bytes, 'VP8 ', 12)) {
    // Lossy: a 3-byte frame tag (bit 0 clear on a key frame), start code 9D 01 2A, then 14-bit width and height
    // (the top two bits of each are a scaling hint, not part of the size).
    if (size < 10 || bytes.length < data + 10) return null;
    if (((bytes[data] ?? 1) & 1) !== 0 || !startsWith(bytes, [0x9d, 0x01, 0x2a], data + 3)) return null;
    return { width: readUint16LE(bytes, data + 6) & 0x3fff, height: readUint16LE(bytes, data + 8) & 0x3fff };
  }
  if (startsWithText(bytes, 'VP8L', 12)) {
    // Lossless: signature 0x2F, then width − 1 and height − 1 in 14 bits each, alpha hint, 3-bit version (0).
    if (size < 5 || bytes.length < data + 5 || bytes[data] !== 0x2f) return null;
    const bits = readUint32LE(bytes, data + 1);
    if (bits >>> 29 !== 0) return null;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (startsWithText(bytes, 'VP8X', 12)) {
    // Extended: flags (1), reserved (3), canvas width − 1 and height − 1 in 24 bits each.
    if (size < 10 || bytes.length < data + 10) return null;
    return { width: readUint24LE(bytes, data + 4) + 1, height: readUint24LE(bytes, data + 7) + 1 };
  }
  return null;
}
