import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE, IMAGE_UPLOAD_MAX_MB, IMAGE_UPLOAD_MEDIA_TYPES } from '@parley/contract';
import sharp, { type JpegOptions, type PngOptions, type SharpOptions, type WebpOptions } from 'sharp';
import { DomainError } from '../../lib/errors.js';
import { createLimiter } from '../../lib/limiter.js';
import {
  checkImagePixels,
  imageDimensions,
  sniffFile,
  type ImageLimits,
  type ImageMediaType,
} from '../documents/index.js';
import { cleanJpeg, cleanPng, pngMayHaveAlpha, type CleanOptions } from './clean-copy.js';

/**
 * The editor's image work on sharp (libvips): uploads and providers' output checked on their bytes, decoded in full,
 * kept without metadata; thumbnails; background composition; masks. Pure functions of bytes: the service stores what
 * they return.
 *
 * A plain PNG or JPEG (the usual case) is kept as a clean copy: its metadata chunks or segments dropped, its
 * compressed pixels copied byte for byte (clean-copy.ts), and decoded in full — the proof that it is an image — by
 * the same pass that makes its thumbnail. Encoding is what costs (a 2 MP photo on two server cores: ~22 ms as JPEG,
 * ~95 ms as PNG, against ~10 ms to decode a JPEG and ~23 ms a PNG; bench/images.ts), so pixels are encoded only when
 * they must change: turned upright, converted to sRGB, brought to 8 bits, a WebP from a provider, a background
 * composed.
 *
 * When that decode happens is the caller's to choose (decision 036): a person's upload is proved before it is kept
 * (`readUpload`), or while a provider works on its clean copy (`startUpload`); a provider's clean copy is kept on its
 * checked structure and proved after the answer, by the pass that makes its thumbnail (`normalizeOutput`, then
 * `thumbnail`).
 *
 * Memory is what bounds this: a decoded 25 MP image is 100 MB. So libvips runs one thread per image and keeps no
 * cache, and at most `concurrency` images are worked on at once (the others wait their turn), so twenty edits at
 * once hold two images' worth of pixels, not twenty.
 */

// Process-wide libvips settings, set once: one worker thread per image (the limiter gives the parallelism), and no
// operation cache (it would keep recent images' pixels alive for reuse that never comes).
sharp.concurrency(1);
sharp.cache(false);

/** An image as Parley keeps it: PNG (it has transparency, or was uploaded as PNG) or JPEG, upright, sRGB, no metadata. */
export type ProcessedImage = {
  bytes: Buffer;
  mediaType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** Its WebP thumbnail (see `thumbnail`), made from the pixels decoded to check it. */
  thumbnail: Buffer;
};

/**
 * A provider's image as Parley keeps it (see `normalizeOutput`). Without a thumbnail, it is a clean copy checked on
 * its structure but not decoded yet: `thumbnail(bytes)` decodes it in full (the proof) and makes its thumbnail.
 */
export type KeptOutput = Omit<ProcessedImage, 'thumbnail'> & { thumbnail: Buffer | null };

/** A person's upload in two steps (see `startUpload`). */
export type StartedUpload = {
  image: Omit<ProcessedImage, 'thumbnail'>;
  /** The full decode (the proof) and the thumbnail it makes; rejects (INVALID_FILE) when the file does not decode. */
  proof: Promise<Buffer>;
};

export const IMAGE_LIMITS: ImageLimits = { maxSide: IMAGE_MAX_SIDE, maxPixels: IMAGE_MAX_MEGAPIXELS * 1_000_000 };
export const THUMBNAIL_SIDE = 384;

/** Images at once by default: two cores, one image each. */
const DEFAULT_CONCURRENCY = 2;
/** Longest one image may take; a file that takes longer is treated as broken. */
const TIMEOUT_SECONDS = 30;

/**
 * Decoding is strict (a truncated or corrupt file is refused, not half-decoded) and capped in pixels (a second guard
 * behind the header check).
 */
const DECODE: SharpOptions = { failOn: 'error', limitInputPixels: IMAGE_LIMITS.maxPixels };
/**
 * JPEG at quality 90 with optimised Huffman tables (libjpeg-turbo). Not mozjpeg: on a 2 MP photo it writes files
 * about 25% smaller but takes about ten times longer (~250 ms against ~25 ms here), more than the whole budget of a
 * request.
 */
const JPEG: JpegOptions = { quality: 90, optimiseCoding: true };
/**
 * zlib level 2, unfiltered: on photographs and cut-outs the same size as level 6 in 40–60% less time (a 2 MP
 * photo: ~95 ms against ~150 ms, a cut-out: ~120 against ~290), 6–8% larger on flat graphics and screenshots.
 * Level 1 is faster again but 15–60% larger; adaptive filtering is 25% smaller on photos but slower than level 6.
 */
const PNG: PngOptions = { compressionLevel: 2 };
const THUMBNAIL_WEBP: WebpOptions = { quality: 75, effort: 2 };

const UPLOAD_TYPES: readonly ImageMediaType[] = IMAGE_UPLOAD_MEDIA_TYPES;
/** What providers return: uploads' types, and WebP (converted before anything is kept). */
const OUTPUT_TYPES: readonly ImageMediaType[] = [...IMAGE_UPLOAD_MEDIA_TYPES, 'image/webp'];

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/**
 * The type the bytes show (the name and declared type are never asked) and the size their header claims, before a
 * pixel is decoded: anything but `allowed` is IMAGE_FORMAT_UNSUPPORTED (SVG, HTML, GIF, a PDF named .png), a claim
 * over the caps is IMAGE_TOO_LARGE, an unreadable header INVALID_FILE.
 */
function inspect(bytes: Uint8Array, allowed: readonly ImageMediaType[]) {
  if (bytes.length === 0) throw new DomainError('INVALID_FILE');
  const sniffed = sniffFile(bytes);
  if (sniffed?.kind !== 'image' || !allowed.includes(sniffed.mediaType)) {
    throw new DomainError('IMAGE_FORMAT_UNSUPPORTED');
  }
  const { width, height } = checkImagePixels(imageDimensions(bytes, sniffed.mediaType), IMAGE_LIMITS);
  return { mediaType: sniffed.mediaType, width, height };
}

/** A sharp pipeline over bytes that passed `inspect`. */
const open = (bytes: Uint8Array) => sharp(bytes, DECODE).timeout({ seconds: TIMEOUT_SECONDS });

/** sharp's failures on bytes that passed `inspect` (corrupt data, a cut-off file, too slow) are the file's fault. */
async function decoding<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('INVALID_FILE');
  }
}

/** At most THUMBNAIL_SIDE on the longest side, never enlarged; a JPEG is decoded at the smallest scale that serves. */
const thumbnailOf = (pipeline: sharp.Sharp) =>
  pipeline
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp(THUMBNAIL_WEBP)
    .toBuffer();

type Encoded = Omit<ProcessedImage, 'thumbnail'>;

async function encoded(pipeline: sharp.Sharp, mediaType: ProcessedImage['mediaType']): Promise<Encoded> {
  const { data, info } = await (mediaType === 'image/png' ? pipeline.png(PNG) : pipeline.jpeg(JPEG)).toBuffer({
    resolveWithObject: true,
  });
  return { bytes: data, mediaType, width: info.width, height: info.height };
}

/** Newly encoded pixels, with a thumbnail of what was written (a second, cheap decode). */
async function withThumbnail(image: Encoded | Promise<Encoded>): Promise<ProcessedImage> {
  const done = await image;
  return { ...done, thumbnail: await thumbnailOf(open(done.bytes)) };
}

/** True when some pixel of raw, interleaved `data` is not fully opaque (its last channel is the alpha). */
function usesAlpha(data: Buffer, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return true;
  return false;
}

/** Images that may wait for the limiter at once, all requests together. */
export const MAX_WAITING = 64;
/** Thumbnails that may wait to be made after their answers (each holds only a way to read its image). */
export const MAX_WAITING_BACKGROUND = 1_000;

/**
 * The image functions, all behind one limiter of `concurrency` images at a time. The module's own instance (the
 * functions exported below) is the one the server uses; tests and benchmarks make their own.
 */
export function createImageProcessing({ concurrency = DEFAULT_CONCURRENCY }: { concurrency?: number } = {}) {
  const limiter = createLimiter(concurrency);
  async function limited<T>(work: () => Promise<T>, { background = false } = {}): Promise<T> {
    // A queue this long means the server is flooded: answering "try again shortly" at once beats holding every
    // waiting request's buffers (up to 20 MB each) for longer and longer.
    if (background ? limiter.waitingBackground >= MAX_WAITING_BACKGROUND : limiter.waiting >= MAX_WAITING)
      throw new DomainError('SERVICE_UNAVAILABLE');
    const release = await limiter.acquire({ background });
    try {
      return await decoding(work);
    } finally {
      release();
    }
  }

  /**
   * A person's upload, made safe to keep and to send: PNG or JPEG by its bytes, within the caps (checked on the
   * header, before decoding), decoded in full (a cut-off or corrupt file is INVALID_FILE), in its own format without
   * any metadata (EXIF, GPS, XMP, ICC, comments) or anything appended after the image (a PNG that is also an HTML
   * page comes back a PNG only). A plain file is kept as a clean copy; one with an EXIF orientation, a colour profile,
   * CMYK or 16 bits is turned upright, converted to sRGB and 8 bits, and re-encoded.
   */
  async function readUpload(bytes: Uint8Array): Promise<ProcessedImage> {
    const started = await startUpload(bytes);
    return { ...started.image, thumbnail: await started.proof };
  }

  /**
   * `readUpload` in two steps, for a caller with work to start on the image meanwhile (an edit sends it to the
   * provider): the clean copy at once — checked on its type, caps and structure, its metadata gone — and its proof,
   * the full decode that makes its thumbnail, to await before the image is kept or anything made from it is. A file
   * that is not plain is re-encoded first, and is proved when this returns.
   */
  async function startUpload(bytes: Uint8Array): Promise<StartedUpload> {
    if (bytes.length > IMAGE_UPLOAD_MAX_MB * 1024 * 1024) {
      throw new DomainError('FILE_TOO_LARGE', { limit: IMAGE_UPLOAD_MAX_MB });
    }
    const { mediaType } = inspect(bytes, UPLOAD_TYPES);
    const type = mediaType === 'image/png' ? 'image/png' : 'image/jpeg';
    const copy = type === 'image/png' ? cleanPng(bytes) : cleanJpeg(bytes);
    if (!copy) {
      const { thumbnail, ...image } = await limited(() => withThumbnail(encoded(open(bytes).rotate(), type)));
      return { image, proof: Promise.resolve(thumbnail) };
    }
    const proof = limited(() => thumbnailOf(open(copy.bytes)));
    // Awaited by the caller when it needs it; a caller that stops first (a refusal) must not leave it unhandled.
    proof.catch(() => undefined);
    return { image: { bytes: copy.bytes, mediaType: type, width: copy.width, height: copy.height }, proof };
  }

  /**
   * A provider's output (PNG, JPEG or WebP) as Parley keeps it: upright, sRGB, without metadata, within the same caps
   * as uploads. A plain PNG or JPEG is kept as its clean copy, in its own format, and returned without a thumbnail:
   * it has passed the checks of its type, caps and structure (every kept chunk's CRC, the segments to the end of the
   * image, no markup), and its full decode — the proof, which makes the thumbnail — is left to `thumbnail`, after the
   * answer. Anything else (a WebP, a colour profile, 16 bits, an orientation) is decoded and encoded now: a PNG when
   * some pixel is see-through, else a JPEG. With `reuse`, the bytes are the caller's to give up (see CleanOptions):
   * the clean copy may be made in their memory.
   */
  async function normalizeOutput(bytes: Uint8Array, options: CleanOptions = {}): Promise<KeptOutput> {
    const { mediaType } = inspect(bytes, OUTPUT_TYPES);
    if (mediaType === 'image/png' || mediaType === 'image/jpeg') {
      const copy = mediaType === 'image/png' ? cleanPng(bytes, options) : cleanJpeg(bytes, options);
      if (copy) return { bytes: copy.bytes, mediaType, width: copy.width, height: copy.height, thumbnail: null };
    }
    return limited(async () => {
      // Opaque output becomes a JPEG: decoded (the proof) straight into it in one pass, then its thumbnail from the
      // JPEG at a reduced scale.
      const toJpeg = () => withThumbnail(encoded(open(bytes).rotate(), 'image/jpeg'));
      if (mediaType === 'image/jpeg') return toJpeg();
      const alpha = mediaType === 'image/png' ? pngMayHaveAlpha(bytes) : (await open(bytes).metadata()).hasAlpha;
      if (!alpha) return toJpeg();
      // An alpha channel may be fully opaque (many providers write RGBA): decoded once (the proof), and looked at.
      const { data, info } = await open(bytes).rotate().raw().toBuffer({ resolveWithObject: true });
      const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
      if (!usesAlpha(data, info.channels)) return withThumbnail(encoded(raw().removeAlpha(), 'image/jpeg'));
      const thumbnail = await thumbnailOf(raw());
      return { ...(await encoded(raw(), 'image/png')), thumbnail };
    });
  }

  async function thumbnailNow(bytes: Uint8Array) {
    const image = open(bytes);
    // Images from readUpload and normalizeOutput are upright already; turning only when asked keeps JPEG's
    // shrink-on-load (decoding at a quarter or an eighth of the size), which rotate() would turn off.
    const { orientation } = await image.metadata();
    if (orientation && orientation > 1) image.rotate();
    return thumbnailOf(image);
  }

  /**
   * A WebP of at most 384 pixels on its longest side (never enlarged), without metadata, for galleries: the image
   * decoded in full (strictly; a file that does not decode is INVALID_FILE), which is the proof of a provider's
   * clean copy kept by `normalizeOutput`. A ProcessedImage comes with its own.
   */
  async function thumbnail(bytes: Uint8Array): Promise<Buffer> {
    inspect(bytes, OUTPUT_TYPES);
    return limited(() => thumbnailNow(bytes));
  }

  /**
   * `thumbnail` as work nobody waits for (after an answer): behind every request's image work, on at most all but
   * one of the places, and its image read only when its turn comes (`read`), so that a queue of them holds no pixels.
   */
  async function thumbnailLater(read: () => Promise<Uint8Array>): Promise<Buffer> {
    return limited(
      async () => {
        const bytes = await read();
        inspect(bytes, OUTPUT_TYPES);
        return thumbnailNow(bytes);
      },
      { background: true },
    );
  }

  /** A cut-out subject (transparent where the background was) on a flat colour `#rrggbb`: an opaque JPEG. */
  async function composeOnColour(cutoutPng: Uint8Array, colour: string): Promise<ProcessedImage> {
    if (!HEX_COLOUR.test(colour)) throw new DomainError('VALIDATION_FAILED', { path: 'colour' });
    inspect(cutoutPng, OUTPUT_TYPES);
    return limited(() =>
      withThumbnail(encoded(open(cutoutPng).rotate().flatten({ background: colour }), 'image/jpeg')),
    );
  }

  /**
   * A cut-out subject on another image: the background is scaled to cover the subject's size (cropped around its
   * centre, its own transparency on white), the subject drawn over it. An opaque JPEG of the subject's size.
   */
  async function composeOnImage(cutoutPng: Uint8Array, backgroundBytes: Uint8Array): Promise<ProcessedImage> {
    inspect(cutoutPng, OUTPUT_TYPES);
    inspect(backgroundBytes, OUTPUT_TYPES);
    return limited(async () => {
      const cutout = await open(cutoutPng).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const { width, height } = cutout.info;
      const composed = open(backgroundBytes)
        .rotate()
        .flatten({ background: '#ffffff' })
        .resize(width, height, { fit: 'cover', position: 'centre' })
        .composite([{ input: cutout.data, raw: { width, height, channels: 4 } }]);
      return withThumbnail(encoded(composed, 'image/jpeg'));
    });
  }

  /**
   * A brushed mask as providers take it: a greyscale PNG of exactly `width` × `height`, white where the image may
   * change, black elsewhere. The upload may mark the area by opacity (strokes on a transparent canvas: any painted
   * pixel counts) or, when it is opaque, by lightness (white strokes on black); its size and shape do not matter,
   * it is stretched to the image.
   */
  async function maskPng(maskBytes: Uint8Array, width: number, height: number): Promise<Buffer> {
    const sizeOk = (n: number) => Number.isInteger(n) && n >= 1 && n <= IMAGE_LIMITS.maxSide;
    if (!sizeOk(width) || !sizeOk(height) || width * height > IMAGE_LIMITS.maxPixels) {
      throw new RangeError('mask size out of range');
    }
    inspect(maskBytes, UPLOAD_TYPES);
    return limited(async () => {
      const { data, info } = await open(maskBytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const byAlpha = usesAlpha(data, 4);
      const marked = Buffer.alloc(info.width * info.height);
      for (let p = 0, i = 0; p < marked.length; p++, i += 4) {
        const on = byAlpha ? data[i + 3]! > 0 : 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]! >= 128;
        marked[p] = on ? 255 : 0;
      }
      // Decided at the mask's own size, then stretched without blending: the result stays pure black and white.
      return sharp(marked, { raw: { width: info.width, height: info.height, channels: 1 } })
        .resize(width, height, { fit: 'fill', kernel: 'nearest' })
        .toColourspace('b-w')
        .png(PNG)
        .toBuffer();
    });
  }

  return {
    readUpload,
    startUpload,
    normalizeOutput,
    thumbnail,
    thumbnailLater,
    composeOnColour,
    composeOnImage,
    maskPng,
    /** Images being worked on, and waiting for their turn. */
    load: () => ({ active: limiter.active, waiting: limiter.waiting, waitingBackground: limiter.waitingBackground }),
  };
}

export type ImageProcessing = ReturnType<typeof createImageProcessing>;

/** The server's image work: one limiter for every image of every request. */
const processing = createImageProcessing();
export const {
  readUpload,
  startUpload,
  normalizeOutput,
  thumbnail,
  thumbnailLater,
  composeOnColour,
  composeOnImage,
  maskPng,
} = processing;
export const imageLoad = processing.load;
