import { DomainError } from '../../lib/errors.js';
import { checkImagePixels, imageDimensions } from './image.js';
import { stripImageMetadata } from './image-metadata.js';

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export type SniffedFile = { kind: 'image'; mediaType: ImageMediaType } | { kind: 'pdf'; mediaType: 'application/pdf' };

export interface AttachmentLimits {
  maxFiles: number;
  imageMaxBytes: number;
  pdfMaxBytes: number;
  pdfMaxPages: number;
}

const MiB = 1024 * 1024;

export const ATTACHMENT_LIMITS: AttachmentLimits = {
  maxFiles: 5,
  imageMaxBytes: 10 * MiB,
  pdfMaxBytes: 25 * MiB,
  pdfMaxPages: 500,
};

/** PDF readers accept a header anywhere in the first 1024 bytes (ISO 32000-1, annex H), after e.g. a MacBinary prefix. */
const PDF_HEADER_WINDOW = 1024;
/** The same readers look for the end-of-file marker near the end; producers sometimes append a few bytes after it. */
const PDF_TRAILER_WINDOW = 1024;

/** The file's type from its first bytes only; the name and the declared MIME type are not consulted. */
export function sniffFile(bytes: Uint8Array): SniffedFile | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: 'image', mediaType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mediaType: 'image/jpeg' };
  if (startsWithText(bytes, 'GIF87a') || startsWithText(bytes, 'GIF89a'))
    return { kind: 'image', mediaType: 'image/gif' };
  if (startsWithText(bytes, 'RIFF') && startsWithText(bytes, 'WEBP', 8))
    return { kind: 'image', mediaType: 'image/webp' };
  if (indexOfText(bytes, '%PDF-', 0, PDF_HEADER_WINDOW) !== -1) return { kind: 'pdf', mediaType: 'application/pdf' };
  return null;
}

export interface AttachmentInput {
  bytes: Uint8Array;
  declaredName?: string;
  declaredType?: string;
}

/**
 * Accepts an upload as the kind its bytes show, or throws.
 *
 * The rule: bytes of a supported kind are accepted whatever the name or declared type says (a PDF called
 * `scan.png` is a PDF). Bytes of no supported kind are UNSUPPORTED_FILE, unless the name or declared type claims a
 * supported kind: then the person meant to send an image or PDF and it is damaged or disguised, so INVALID_FILE.
 * An empty file, or one whose structure is visibly broken (e.g. cut off mid-upload), is INVALID_FILE too.
 */
export function checkAttachment(
  { bytes, declaredName, declaredType }: AttachmentInput,
  limits: Pick<AttachmentLimits, 'imageMaxBytes' | 'pdfMaxBytes'> = ATTACHMENT_LIMITS,
): SniffedFile {
  if (bytes.length === 0) throw new DomainError('INVALID_FILE');
  const sniffed = sniffFile(bytes);
  if (!sniffed) {
    throw new DomainError(claimsSupportedKind(declaredName, declaredType) ? 'INVALID_FILE' : 'UNSUPPORTED_FILE');
  }
  const maxBytes = sniffed.kind === 'pdf' ? limits.pdfMaxBytes : limits.imageMaxBytes;
  if (bytes.length > maxBytes) throw new DomainError('FILE_TOO_LARGE', { limit: toMegabytes(maxBytes) });
  if (!looksIntact(bytes, sniffed.mediaType)) throw new DomainError('INVALID_FILE');
  return sniffed;
}

/**
 * An upload as it may be kept and sent to a model: `checkAttachment`, then, for an image, the pixel cap (a small
 * file may claim a huge canvas) and its metadata removed (EXIF GPS, XMP, comments), pixels untouched.
 */
export function acceptAttachment(input: AttachmentInput): SniffedFile & { bytes: Buffer } {
  const sniffed = checkAttachment(input);
  if (sniffed.kind !== 'image') {
    return { ...sniffed, bytes: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength) };
  }
  checkImagePixels(imageDimensions(input.bytes, sniffed.mediaType));
  return { ...sniffed, bytes: stripImageMetadata(input.bytes, sniffed.mediaType) };
}

/** Before reading any bytes: more files than allowed in one message is TOO_MANY_FILES. */
export function checkAttachmentCount(
  count: number,
  limits: Pick<AttachmentLimits, 'maxFiles'> = ATTACHMENT_LIMITS,
): void {
  if (count > limits.maxFiles) throw new DomainError('TOO_MANY_FILES', { limit: limits.maxFiles });
}

const SUPPORTED_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'pjp', 'gif', 'webp', 'pdf']);
const SUPPORTED_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/x-pdf',
]);

function claimsSupportedKind(name: string | undefined, type: string | undefined): boolean {
  const extension = name
    ?.trim()
    .toLowerCase()
    .match(/\.([a-z0-9]+)$/)?.[1];
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  return (
    (extension !== undefined && SUPPORTED_EXTENSIONS.has(extension)) ||
    (mediaType !== undefined && SUPPORTED_TYPES.has(mediaType))
  );
}

/** A cheap look at the structure, not a decode: catches truncated uploads and files that only borrow a signature. */
function looksIntact(bytes: Uint8Array, mediaType: SniffedFile['mediaType']): boolean {
  switch (mediaType) {
    case 'image/png':
      // IHDR must be the first chunk (length 13); IEND marks a file that was not cut off.
      return (
        bytes.length >= 8 + 25 + 12 &&
        readUint32BE(bytes, 8) === 13 &&
        startsWithText(bytes, 'IHDR', 12) &&
        indexOfText(bytes, 'IEND', 33, bytes.length) !== -1
      );
    case 'image/jpeg':
      // SOI, then a start-of-scan or end-of-image marker somewhere after it.
      return indexOfBytes(bytes, [0xff, 0xda], 2) !== -1 || indexOfBytes(bytes, [0xff, 0xd9], 2) !== -1;
    case 'image/gif':
      // Header (6), logical screen descriptor (7) and at least the trailer byte.
      return bytes.length >= 14;
    case 'image/webp':
      // RIFF header plus the first chunk header, which must be one of the WebP bitstream kinds.
      return bytes.length >= 20 && ['VP8 ', 'VP8L', 'VP8X'].some((chunk) => startsWithText(bytes, chunk, 12));
    case 'application/pdf':
      return indexOfText(bytes, '%%EOF', Math.max(0, bytes.length - PDF_TRAILER_WINDOW), bytes.length) !== -1;
  }
}

function toMegabytes(bytes: number): number {
  return Math.round((bytes / MiB) * 10) / 10;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

function startsWithText(bytes: Uint8Array, text: string, at = 0): boolean {
  return startsWith(bytes, asciiBytes(text), at);
}

function indexOfText(bytes: Uint8Array, text: string, from: number, to: number): number {
  return indexOfBytes(bytes, asciiBytes(text), from, to);
}

function indexOfBytes(bytes: Uint8Array, needle: readonly number[], from: number, to = bytes.length): number {
  const last = Math.min(to, bytes.length) - needle.length;
  for (let i = from; i <= last; i++) {
    if (bytes[i] === needle[0] && startsWith(bytes, needle, i)) return i;
  }
  return -1;
}

function asciiBytes(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

function readUint32BE(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0
  );
}
