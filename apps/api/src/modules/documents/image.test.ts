import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { checkImagePixels, IMAGE_LIMITS, imageDimensions } from './image.js';
import {
  buildGifImage,
  buildJpegImage,
  buildPhotoGif,
  buildPhotoJpeg,
  buildPhotoPng,
  buildPhotoWebp,
  buildPngImage,
  buildWebpImage,
  commentSegment,
  exifSegment,
  iccSegment,
  jfifSegment,
  jpegSegment,
  VP8_1X1,
  VP8L_1X1,
  vp8xChunk,
  webpChunk,
  xmpSegment,
} from './image-fixtures.js';
import { isStartOfFrame } from './jpeg-segments.js';
import { buildGif, buildJpeg, buildPng, buildWebp } from './test-fixtures.js';

function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

/** Replaces the first occurrence of marker FF `from` in a JPEG with FF `to`. */
function relabelMarker(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  for (let i = 0; i < copy.length - 1; i++) {
    if (copy[i] === 0xff && copy[i + 1] === from) {
      copy[i + 1] = to;
      return copy;
    }
  }
  throw new Error(`marker ${from.toString(16)} not found`);
}

const u16le = (n: number) => [n & 0xff, (n >>> 8) & 0xff];
const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

describe('imageDimensions', () => {
  describe('PNG', () => {
    it('reads width and height from IHDR', () => {
      expect(imageDimensions(buildPng(), 'image/png')).toEqual({ width: 1, height: 1 });
      expect(imageDimensions(buildPngImage({ width: 640, height: 480 }), 'image/png')).toEqual({
        width: 640,
        height: 480,
      });
      expect(imageDimensions(buildPhotoPng(), 'image/png')).toEqual({ width: 1, height: 1 });
    });

    it('reads the full 32-bit values, whatever the file size', () => {
      expect(imageDimensions(buildPngImage({ width: 50_000, height: 50_000 }), 'image/png')).toEqual({
        width: 50_000,
        height: 50_000,
      });
      expect(imageDimensions(buildPngImage({ width: 0xffffffff, height: 1 }), 'image/png')).toEqual({
        width: 0xffffffff,
        height: 1,
      });
    });

    it('gives up on a missing signature, a first chunk that is not IHDR, or a cut-off header', () => {
      const png = buildPngImage({ width: 3, height: 2 });
      expect(imageDimensions(png.slice(0, 23), 'image/png')).toBeNull();
      expect(imageDimensions(png.slice(0, 24), 'image/png')).toEqual({ width: 3, height: 2 });
      const notIhdr = Uint8Array.from(png);
      notIhdr.set(Buffer.from('IHDX', 'latin1'), 12);
      expect(imageDimensions(notIhdr, 'image/png')).toBeNull();
      const wrongLength = Uint8Array.from(png);
      wrongLength[11] = 14;
      expect(imageDimensions(wrongLength, 'image/png')).toBeNull();
      expect(imageDimensions(buildJpeg(), 'image/png')).toBeNull();
      expect(imageDimensions(new Uint8Array(), 'image/png')).toBeNull();
    });
  });

  describe('JPEG', () => {
    it('reads the baseline frame header', () => {
      expect(imageDimensions(buildJpegImage({ width: 33, height: 17 }), 'image/jpeg')).toEqual({
        width: 33,
        height: 17,
      });
      expect(imageDimensions(buildPhotoJpeg(), 'image/jpeg')).toEqual({ width: 16, height: 8 });
      expect(imageDimensions(buildJpegImage({ width: 65535, height: 65535, scan: false }), 'image/jpeg')).toEqual({
        width: 65535,
        height: 65535,
      });
    });

    it('walks past large APP segments by their lengths to the frame header', () => {
      // Near-maximal segments whose payloads are full of bytes that look like markers.
      const fakeSof = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01];
      const noise = Array.from({ length: 65_000 }, (_, i) => fakeSof[i % fakeSof.length] ?? 0);
      const jpeg = buildJpegImage({
        width: 1920,
        height: 1080,
        scan: false,
        segments: [
          jfifSegment(),
          exifSegment([...Buffer.from('II*\0', 'latin1'), 8, 0, 0, 0, 0, 0, ...noise]),
          xmpSegment('x'.repeat(65_000)),
          iccSegment(65_000),
          jpegSegment(0xed, noise),
          commentSegment('c'.repeat(65_000)),
        ],
      });
      expect(jpeg.length).toBeGreaterThan(5 * 65_000);
      expect(imageDimensions(jpeg, 'image/jpeg')).toEqual({ width: 1920, height: 1080 });
    });

    it('accepts every SOFn marker and no other', () => {
      const jpeg = buildJpegImage({ width: 40, height: 30 });
      for (const marker of [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]) {
        expect(isStartOfFrame(marker)).toBe(true);
        expect(imageDimensions(relabelMarker(jpeg, 0xc0, marker), 'image/jpeg')).toEqual({ width: 40, height: 30 });
      }
      for (const marker of [0xc4, 0xc8, 0xcc, 0xdb, 0xdd, 0xe0, 0xfe, 0xf0]) expect(isStartOfFrame(marker)).toBe(false);
      // The frame header relabelled as an APP15: no frame before the scan.
      expect(imageDimensions(relabelMarker(jpeg, 0xc0, 0xef), 'image/jpeg')).toBeNull();
    });

    it('skips fill bytes and standalone markers between segments', () => {
      const jpeg = buildJpegImage({ width: 24, height: 16 });
      const sof = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
      const padded = new Uint8Array([
        ...jpeg.subarray(0, sof),
        ...[0xff, 0xff, 0xff], // fill
        ...[0xff, 0x01], // TEM
        ...[0xff, 0xd3], // RST3
        ...jpeg.subarray(sof),
      ]);
      expect(imageDimensions(padded, 'image/jpeg')).toEqual({ width: 24, height: 16 });
    });

    it('gives up when no frame header comes before the scan or the end', () => {
      const jpeg = buildJpegImage();
      expect(imageDimensions(buildJpeg(), 'image/jpeg')).toBeNull(); // SOS without SOF
      expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')).toBeNull();
      expect(imageDimensions(new Uint8Array([0xff, 0xd8]), 'image/jpeg')).toBeNull();
      const sof = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
      // The whole frame header must be there (13 bytes for one component).
      for (const cut of [3, 4, 10, sof, sof + 1, sof + 3, sof + 9, sof + 12]) {
        expect(imageDimensions(jpeg.slice(0, cut), 'image/jpeg')).toBeNull();
      }
      expect(imageDimensions(jpeg.slice(0, sof + 13), 'image/jpeg')).toEqual({ width: 16, height: 8 });
    });

    it('gives up on broken structure instead of guessing', () => {
      const sof = [0xff, 0xc0, 0x00, 0x0b, 8, 0, 8, 0, 8, 1, 1, 0x11, 0];
      const app = (length: number) => [0xff, 0xe1, length >> 8, length & 0xff];
      const jpeg = (...middle: number[]) => new Uint8Array([0xff, 0xd8, ...middle, ...sof, 0xff, 0xd9]);
      expect(imageDimensions(jpeg(), 'image/jpeg')).toEqual({ width: 8, height: 8 });
      expect(imageDimensions(jpeg(0x00, 0x12), 'image/jpeg')).toBeNull(); // bytes between segments
      expect(imageDimensions(jpeg(...app(1)), 'image/jpeg')).toBeNull(); // length below 2
      expect(imageDimensions(jpeg(...app(0xffff)), 'image/jpeg')).toBeNull(); // runs past the end
      expect(imageDimensions(jpeg(0xff, 0x00), 'image/jpeg')).toBeNull(); // FF 00 is not a marker
      expect(imageDimensions(jpeg(0xff, 0xd8), 'image/jpeg')).toBeNull(); // a second SOI
      // A frame header too short to hold the size.
      expect(
        imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x05, 8, 0, 8, 0xff, 0xd9]), 'image/jpeg'),
      ).toBeNull();
      expect(imageDimensions(buildPng(), 'image/jpeg')).toBeNull();
    });
  });

  describe('GIF', () => {
    it('reads the logical screen size, little-endian', () => {
      expect(imageDimensions(buildGif(), 'image/gif')).toEqual({ width: 1, height: 1 });
      expect(imageDimensions(buildGifImage({ width: 300, height: 2 }), 'image/gif')).toEqual({
        width: 300,
        height: 2,
      });
      expect(imageDimensions(buildGifImage({ width: 65535, height: 65534 }), 'image/gif')).toEqual({
        width: 65535,
        height: 65534,
      });
      expect(imageDimensions(buildPhotoGif(), 'image/gif')).toEqual({ width: 1, height: 1 });
      const gif87 = Uint8Array.from(buildGif());
      gif87.set(Buffer.from('87a', 'latin1'), 3);
      expect(imageDimensions(gif87, 'image/gif')).toEqual({ width: 1, height: 1 });
    });

    it('gives up on a cut-off header or another signature', () => {
      expect(imageDimensions(buildGif().slice(0, 9), 'image/gif')).toBeNull();
      expect(imageDimensions(buildGif().slice(0, 10), 'image/gif')).toEqual({ width: 1, height: 1 });
      expect(imageDimensions(Buffer.from('GIF90a\x01\x00\x01\x00', 'latin1'), 'image/gif')).toBeNull();
    });
  });

  describe('WebP', () => {
    it('reads a lossy key frame, ignoring the scaling bits', () => {
      expect(imageDimensions(buildWebpImage([webpChunk('VP8 ', VP8_1X1)]), 'image/webp')).toEqual({
        width: 1,
        height: 1,
      });
      const frame = [...VP8_1X1];
      frame.splice(6, 4, ...u16le(0xc000 | 16383), ...u16le(0x4000 | 500));
      expect(imageDimensions(buildWebpImage([webpChunk('VP8 ', frame)]), 'image/webp')).toEqual({
        width: 16383,
        height: 500,
      });
    });

    it('rejects a lossy frame that is not a key frame or lacks the start code', () => {
      const interFrame = [...VP8_1X1];
      interFrame[0] = (interFrame[0] ?? 0) | 1;
      expect(imageDimensions(buildWebpImage([webpChunk('VP8 ', interFrame)]), 'image/webp')).toBeNull();
      const noStartCode = [...VP8_1X1];
      noStartCode[3] = 0x9c;
      expect(imageDimensions(buildWebpImage([webpChunk('VP8 ', noStartCode)]), 'image/webp')).toBeNull();
      expect(imageDimensions(buildWebpImage([webpChunk('VP8 ', VP8_1X1.slice(0, 9))]), 'image/webp')).toBeNull();
    });

    it('reads the 14-bit sizes of a lossless frame', () => {
      expect(imageDimensions(buildWebp(), 'image/webp')).toEqual({ width: 1, height: 1 });
      const lossless = (width: number, height: number, version = 0) =>
        buildWebpImage([
          webpChunk('VP8L', [0x2f, ...u32le((width - 1) | ((height - 1) << 14) | (version << 29)), 0, 0]),
        ]);
      expect(imageDimensions(lossless(16384, 16384), 'image/webp')).toEqual({ width: 16384, height: 16384 });
      expect(imageDimensions(lossless(300, 7), 'image/webp')).toEqual({ width: 300, height: 7 });
      expect(imageDimensions(lossless(300, 7, 1), 'image/webp')).toBeNull();
      const badSignature = buildWebpImage([webpChunk('VP8L', [0x2e, ...VP8L_1X1.slice(1)])]);
      expect(imageDimensions(badSignature, 'image/webp')).toBeNull();
    });

    it('reads the 24-bit canvas of an extended file', () => {
      expect(imageDimensions(buildPhotoWebp(), 'image/webp')).toEqual({ width: 1, height: 1 });
      const extended = (width: number, height: number) =>
        buildWebpImage([vp8xChunk({ width, height, flags: 0 }), webpChunk('VP8L', VP8L_1X1)]);
      expect(imageDimensions(extended(20_000, 3), 'image/webp')).toEqual({ width: 20_000, height: 3 });
      expect(imageDimensions(extended(2 ** 24, 2 ** 24), 'image/webp')).toEqual({ width: 2 ** 24, height: 2 ** 24 });
    });

    it('gives up on a cut-off header or an unknown first chunk', () => {
      const webp = buildPhotoWebp();
      expect(imageDimensions(webp.slice(0, 29), 'image/webp')).toBeNull();
      expect(imageDimensions(webp.slice(0, 30), 'image/webp')).toEqual({ width: 1, height: 1 });
      expect(imageDimensions(buildWebpImage([webpChunk('ALPH', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])]), 'image/webp')).toBe(
        null,
      );
      expect(imageDimensions(Buffer.from('RIFF\x04\x00\x00\x00WAVE', 'latin1'), 'image/webp')).toBeNull();
    });
  });
});

describe('checkImagePixels', () => {
  it('is 16384 pixels a side and 64 megapixels by default', () => {
    expect(IMAGE_LIMITS).toEqual({ maxSide: 16384, maxPixels: 64_000_000 });
  });

  it('passes images within the limits and returns their size', () => {
    expect(checkImagePixels({ width: 1, height: 1 })).toEqual({ width: 1, height: 1 });
    expect(checkImagePixels({ width: 8000, height: 8000 })).toEqual({ width: 8000, height: 8000 });
    expect(checkImagePixels({ width: 16384, height: 3906 })).toEqual({ width: 16384, height: 3906 });
    expect(checkImagePixels({ width: 1, height: 16384 })).toEqual({ width: 1, height: 16384 });
  });

  it.each([
    [16385, 1],
    [1, 16385],
    [8000, 8001],
    [16384, 3907],
    [65535, 65535],
    [0xffffffff, 0xffffffff],
  ])('refuses %i × %i as IMAGE_TOO_LARGE, with the numbers for the message', (width, height) => {
    const error = domainError(() => checkImagePixels({ width, height }));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.params).toEqual({ width, height, maxMegapixels: 64, maxSide: 16384 });
  });

  it('refuses an unreadable header or an empty canvas as INVALID_FILE', () => {
    expect(domainError(() => checkImagePixels(null)).code).toBe('INVALID_FILE');
    expect(domainError(() => checkImagePixels({ width: 0, height: 10 })).code).toBe('INVALID_FILE');
    expect(domainError(() => checkImagePixels({ width: 10, height: 0 })).code).toBe('INVALID_FILE');
  });

  it('applies the limits it is given', () => {
    const limits = { maxSide: 100, maxPixels: 5_000_000 };
    expect(checkImagePixels({ width: 100, height: 50 }, limits)).toEqual({ width: 100, height: 50 });
    expect(domainError(() => checkImagePixels({ width: 101, height: 1 }, limits)).params).toEqual({
      width: 101,
      height: 1,
      maxMegapixels: 5,
      maxSide: 100,
    });
  });

  it('refuses the 50000 × 50000 PNG that a few bytes can claim', () => {
    const bomb = buildPngImage({ width: 50_000, height: 50_000 });
    expect(bomb.length).toBeLessThan(100);
    const error = domainError(() => checkImagePixels(imageDimensions(bomb, 'image/png')));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.params).toEqual({ width: 50_000, height: 50_000, maxMegapixels: 64, maxSide: 16384 });
  });

  it('refuses oversized images of every format, and a JPEG without a frame header', () => {
    const tooLarge = [
      imageDimensions(buildJpegImage({ width: 20_000, height: 10, scan: false }), 'image/jpeg'),
      imageDimensions(buildGifImage({ width: 10_000, height: 10_000 }), 'image/gif'),
      imageDimensions(
        buildWebpImage([vp8xChunk({ width: 9000, height: 9000, flags: 0 }), webpChunk('VP8L', VP8L_1X1)]),
        'image/webp',
      ),
    ];
    for (const dims of tooLarge) expect(domainError(() => checkImagePixels(dims)).code).toBe('IMAGE_TOO_LARGE');
    expect(domainError(() => checkImagePixels(imageDimensions(buildJpeg(), 'image/jpeg'))).code).toBe('INVALID_FILE');
  });
});
