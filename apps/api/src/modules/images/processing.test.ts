import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import {
  buildJpegImage,
  buildPhotoJpeg,
  buildPhotoPng,
  buildPngImage,
  CAMERA_MAKE,
} from '../documents/image-fixtures.js';
import { buildGif, buildPdf, buildWebp } from '../documents/test-fixtures.js';
import {
  composeOnColour,
  composeOnImage,
  createImageProcessing,
  maskPng,
  normalizeOutput,
  readUpload,
  thumbnail,
} from './processing.js';

// Every image here is made in the test: by sharp from pixels, or byte by byte (documents' fixtures).

type Rgba = [number, number, number, number];

/** `width` × `height` pixels, each from `colour(x, y)`, as raw RGBA for sharp. */
function pixels(width: number, height: number, colour: (x: number, y: number) => Rgba) {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(colour(x, y), (y * width + x) * 4);
  return sharp(data, { raw: { width, height, channels: 4 } });
}

/** A photo-like picture: smooth gradients with some grain, opaque. */
const photo = (width: number, height: number) =>
  pixels(width, height, (x, y) => [
    (x * 255) / width,
    (y * 255) / height,
    128 + ((x * 7 + y * 13) % 31),
    255,
  ]).removeAlpha();

/** The pixel at (x, y) as RGBA. */
async function pixelAt(bytes: Uint8Array, x: number, y: number): Promise<Rgba> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

const near = (actual: Rgba, expected: Rgba, tolerance = 12) =>
  expect(
    actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance),
    `${actual.join(',')} ≈ ${expected.join(',')}`,
  ).toBe(true);

async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** No metadata of any kind left, read back by sharp. */
async function expectNoMetadata(bytes: Uint8Array) {
  const meta = await sharp(bytes).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.comments ?? []).toEqual([]);
  expect(meta.orientation).toBeUndefined();
  return meta;
}

const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');

describe('readUpload: what is not a PNG or JPEG by its bytes is refused before decoding', () => {
  const svg = Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
      '<script>alert(1)</script><rect width="10" height="10" fill="red"/></svg>',
  );
  const cases: [string, Uint8Array][] = [
    ['SVG named .png', svg],
    ['HTML named .png', Buffer.from('<!doctype html><html><img src=x onerror=alert(1)></html>')],
    ['a PDF named .png', buildPdf([['Not a picture.']])],
    ['a GIF', buildGif()],
    ['a WebP', buildWebp()],
    ['plain text', Buffer.from('just some words')],
    ['a BMP', Buffer.from('BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00', 'latin1')],
  ];
  it.each(cases)('%s → IMAGE_FORMAT_UNSUPPORTED', async (_name, bytes) => {
    expect((await refusal(readUpload(bytes))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
  });

  it('an empty file is INVALID_FILE; one over 20 MB is FILE_TOO_LARGE', async () => {
    expect((await refusal(readUpload(new Uint8Array(0)))).code).toBe('INVALID_FILE');
    const huge = Buffer.alloc(20 * 1024 * 1024 + 1);
    huge.set(buildPngImage());
    const tooLarge = await refusal(readUpload(huge));
    expect(tooLarge.code).toBe('FILE_TOO_LARGE');
    expect(tooLarge.params).toEqual({ limit: 20 });
  });
});

describe('readUpload: sizes', () => {
  it('a 50 000 × 50 000 PNG or JPEG header is refused at once, with the limits, nothing decoded', async () => {
    const work = createImageProcessing({ concurrency: 1 });
    const headers = [
      buildPngImage({ width: 50_000, height: 50_000 }),
      buildJpegImage({ width: 50_000, height: 50_000, scan: false }),
    ];
    for (const bytes of headers) {
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const error = await refusal(work.readUpload(bytes));
      const elapsed = performance.now() - started;
      expect(error.code).toBe('IMAGE_TOO_LARGE');
      expect(error.params).toEqual({ width: 50_000, height: 50_000, maxMegapixels: 25, maxSide: 8192 });
      expect(elapsed).toBeLessThan(50);
      // 2.5 gigapixels decoded would be 10 GB; nothing near it was allocated.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    }
    expect(work.load()).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses a side over 8192 or more than 25 megapixels, on the header', async () => {
    for (const [width, height] of [
      [8193, 10],
      [10, 9000],
      [6000, 5000],
    ] as const) {
      const png = await refusal(readUpload(buildPngImage({ width, height })));
      const jpeg = await refusal(readUpload(buildJpegImage({ width, height, scan: false })));
      expect([png.code, jpeg.code]).toEqual(['IMAGE_TOO_LARGE', 'IMAGE_TOO_LARGE']);
    }
  });
});

describe('readUpload: damaged files', () => {
  it('a truncated PNG or JPEG is INVALID_FILE, not half an image', async () => {
    const png = await photo(300, 200).png().toBuffer();
    const jpeg = await photo(300, 200).jpeg().toBuffer();
    for (const cut of [png.subarray(0, png.length / 2), png.subarray(0, 40), png.subarray(0, png.length - 20)]) {
      expect((await refusal(readUpload(cut))).code).toBe('INVALID_FILE');
    }
    for (const cut of [jpeg.subarray(0, jpeg.length / 2), jpeg.subarray(0, jpeg.length - 300)]) {
      expect((await refusal(readUpload(cut))).code).toBe('INVALID_FILE');
    }
  });

  it('a PNG whose pixels are corrupt is INVALID_FILE', async () => {
    const png = Buffer.from(await photo(64, 64).png({ compressionLevel: 0 }).toBuffer());
    const idat = png.indexOf('IDAT');
    png.fill(0xff, idat + 200, idat + 260); // inside the compressed data: its CRC and checksum no longer match
    expect((await refusal(readUpload(png))).code).toBe('INVALID_FILE');
  });
});

describe('readUpload: what comes out', () => {
  it('a PNG that is also an HTML page comes back a PNG only, with nothing after its end', async () => {
    const png = await photo(32, 32).png().toBuffer();
    const polyglot = Buffer.concat([png, HTML]);
    const out = await readUpload(polyglot);
    expect(out.mediaType).toBe('image/png');
    expect(out.bytes.subarray(-12).equals(PNG_END)).toBe(true);
    expect(out.bytes.includes('<html')).toBe(false);
    expect(out.bytes.includes('script')).toBe(false);
  });

  it('a JPEG with a page appended, or HTML in a comment, comes back without either', async () => {
    const jpeg = await photo(32, 32).jpeg().toBuffer();
    const out = await readUpload(Buffer.concat([jpeg, HTML]));
    expect(out.mediaType).toBe('image/jpeg');
    expect(out.bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9]))).toBe(true);
    expect(out.bytes.includes('<html')).toBe(false);
    const commented = buildJpegImage({ segments: [[0xff, 0xfe, 0, HTML.length + 2, ...HTML]] });
    expect((await readUpload(commented)).bytes.includes('script')).toBe(false);
  });

  it('a JPEG with EXIF GPS and camera data, XMP and an ICC profile loses them all', async () => {
    const tagged = await photo(64, 48)
      .jpeg()
      .withExif({
        IFD0: { Make: CAMERA_MAKE, Model: 'P1', Artist: 'Jane Parley' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '52/1 22/1 3400/100',
          GPSLongitudeRef: 'E',
          GPSLongitude: '4/1 53/1 5700/100',
        },
      })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">Keizersgracht</x:xmpmeta>')
      .withIccProfile('p3')
      .toBuffer();
    const before = await sharp(tagged).metadata();
    expect(before.exif?.includes(CAMERA_MAKE)).toBe(true);
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer (tag 0x8825, II)
    expect(before.xmp).toBeDefined();
    expect(before.icc).toBeDefined();

    const out = await readUpload(tagged);
    expect(out).toMatchObject({ mediaType: 'image/jpeg', width: 64, height: 48 });
    const after = await expectNoMetadata(out.bytes);
    expect(after.space).toBe('srgb');
    for (const word of [CAMERA_MAKE, 'Jane Parley', 'Keizersgracht', 'Exif', 'GPS', 'ICC_PROFILE']) {
      expect(out.bytes.includes(word), word).toBe(false);
    }
  });

  it('a phone’s JPEG and an editor’s PNG, built byte by byte with every kind of metadata, lose it all', async () => {
    for (const bytes of [buildPhotoJpeg({ orientation: 6 }), buildPhotoPng()]) {
      const out = await readUpload(bytes);
      await expectNoMetadata(out.bytes);
      for (const word of [CAMERA_MAKE, 'Keizersgracht', 'Amsterdam', 'Jane Parley', 'GPS']) {
        expect(out.bytes.includes(word), word).toBe(false);
      }
    }
  });

  it('an EXIF orientation is applied to the pixels: the picture comes back upright, with no tag', async () => {
    // Stored sideways: red on the left, blue on the right; orientation 6 says "turn 90° clockwise to view".
    const sideways = await pixels(40, 20, (x) => (x < 20 ? [220, 20, 20, 255] : [20, 20, 220, 255]))
      .removeAlpha()
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const out = await readUpload(sideways);
    expect(out).toMatchObject({ width: 20, height: 40 });
    await expectNoMetadata(out.bytes);
    near(await pixelAt(out.bytes, 10, 5), [220, 20, 20, 255], 30); // what was on the left is now on top
    near(await pixelAt(out.bytes, 10, 35), [20, 20, 220, 255], 30);
  });

  it('a CMYK JPEG decodes, into sRGB', async () => {
    const cmyk = await pixels(32, 32, () => [200, 40, 40, 255])
      .removeAlpha()
      .toColourspace('cmyk')
      .jpeg({ quality: 95 })
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const out = await readUpload(cmyk);
    const meta = await expectNoMetadata(out.bytes);
    expect(meta).toMatchObject({ space: 'srgb', channels: 3 });
    const [r, g, b] = await pixelAt(out.bytes, 16, 16);
    expect(r).toBeGreaterThan(150);
    expect(Math.max(g, b)).toBeLessThan(100);
  });

  it('a Display P3 PNG is converted to sRGB, its profile dropped', async () => {
    // sharp writes sRGB (200, 100, 50) as the P3 numbers of that colour, and tags the file with the P3 profile.
    const p3 = await pixels(8, 8, () => [200, 100, 50, 255])
      .removeAlpha()
      .png()
      .withIccProfile('p3')
      .toBuffer();
    const stored = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    expect(Math.abs(stored[0]! - 200)).toBeGreaterThan(6); // the file's own numbers are not sRGB's
    const out = await readUpload(p3);
    await expectNoMetadata(out.bytes);
    near(await pixelAt(out.bytes, 4, 4), [200, 100, 50, 255], 2);
  });

  it('a 16-bit PNG decodes, to 8 bits with the same colours', async () => {
    const sixteen = await pixels(16, 16, (x) => (x < 8 ? [255, 128, 0, 255] : [0, 64, 255, 255]))
      .removeAlpha()
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(sixteen).metadata()).depth).toBe('ushort');
    const out = await readUpload(sixteen);
    expect(out.mediaType).toBe('image/png');
    expect((await sharp(out.bytes).metadata()).depth).toBe('uchar');
    near(await pixelAt(out.bytes, 2, 2), [255, 128, 0, 255], 2);
    near(await pixelAt(out.bytes, 12, 2), [0, 64, 255, 255], 2);
  });

  it('a PNG keeps its transparency', async () => {
    const half = await pixels(20, 10, (x) => (x < 10 ? [0, 200, 0, 255] : [0, 0, 0, 0]))
      .png()
      .toBuffer();
    const out = await readUpload(half);
    expect(out).toMatchObject({ mediaType: 'image/png', width: 20, height: 10 });
    expect((await sharp(out.bytes).metadata()).hasAlpha).toBe(true);
    near(await pixelAt(out.bytes, 2, 5), [0, 200, 0, 255], 0);
    expect((await pixelAt(out.bytes, 15, 5))[3]).toBe(0);
  });
});

describe('normalizeOutput', () => {
  it('transparent output → PNG; opaque (a JPEG, a WebP, an RGBA PNG with nothing see-through) → JPEG', async () => {
    const cutout = await pixels(20, 10, (x) => (x < 10 ? [200, 0, 0, 255] : [0, 0, 0, 0]))
      .png()
      .toBuffer();
    const opaqueRgba = await pixels(20, 10, () => [10, 20, 30, 255])
      .png()
      .toBuffer();
    const webp = await photo(30, 20).webp().toBuffer();
    const webpAlpha = await pixels(20, 10, (x) => (x < 10 ? [0, 0, 200, 255] : [0, 0, 0, 0]))
      .webp({ lossless: true })
      .toBuffer();
    const jpeg = await photo(30, 20)
      .jpeg()
      .withExif({ IFD0: { Make: CAMERA_MAKE } })
      .toBuffer();

    const outs = await Promise.all([cutout, opaqueRgba, webp, webpAlpha, jpeg].map((b) => normalizeOutput(b)));
    expect(outs.map((o) => o.mediaType)).toEqual(['image/png', 'image/jpeg', 'image/jpeg', 'image/png', 'image/jpeg']);
    expect(outs.map((o) => [o.width, o.height])).toEqual([
      [20, 10],
      [20, 10],
      [30, 20],
      [20, 10],
      [30, 20],
    ]);
    for (const out of outs) {
      await expectNoMetadata(out.bytes);
      expect((await sharp(out.bytes).metadata()).format).toBe(out.mediaType === 'image/png' ? 'png' : 'jpeg');
    }
    expect((await pixelAt(outs[0]!.bytes, 15, 5))[3]).toBe(0);
    near(await pixelAt(outs[1]!.bytes, 5, 5), [10, 20, 30, 255], 4);
    expect((await pixelAt(outs[3]!.bytes, 15, 5))[3]).toBe(0);
  });

  it('refuses what is not an image, and output over the caps', async () => {
    expect((await refusal(normalizeOutput(Buffer.from('<svg/>')))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
    expect((await refusal(normalizeOutput(buildGif()))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
    const huge = await refusal(normalizeOutput(buildPngImage({ width: 10_000, height: 10_000 })));
    expect(huge.code).toBe('IMAGE_TOO_LARGE');
    const cut = await photo(100, 100).png().toBuffer();
    expect((await refusal(normalizeOutput(cut.subarray(0, 300)))).code).toBe('INVALID_FILE');
  });
});

describe('thumbnail', () => {
  it('a WebP at most 384 px on its longest side, shape kept, never enlarged, without metadata', async () => {
    const wide = await thumbnail(await photo(1200, 600).jpeg().toBuffer());
    expect(await expectNoMetadata(wide)).toMatchObject({ format: 'webp', width: 384, height: 192 });
    const tall = await thumbnail(await photo(300, 900).png().toBuffer());
    expect(await sharp(tall).metadata()).toMatchObject({ format: 'webp', width: 128, height: 384 });
    const small = await thumbnail(await photo(100, 50).png().toBuffer());
    expect(await sharp(small).metadata()).toMatchObject({ width: 100, height: 50 });
  });

  it('keeps transparency, and turns an image that still has an orientation upright', async () => {
    const cutout = await pixels(40, 40, (x) => (x < 20 ? [200, 0, 0, 255] : [0, 0, 0, 0]))
      .png()
      .toBuffer();
    const thumb = await thumbnail(cutout);
    expect((await pixelAt(thumb, 30, 20))[3]).toBe(0);
    const sideways = await pixels(40, 20, (x) => (x < 20 ? [220, 20, 20, 255] : [20, 20, 220, 255]))
      .removeAlpha()
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const upright = await thumbnail(sideways);
    expect(await expectNoMetadata(upright)).toMatchObject({ width: 20, height: 40 });
    near(await pixelAt(upright, 10, 5), [220, 20, 20, 255], 40);
  });
});

describe('background composition', () => {
  const cutout = () =>
    pixels(40, 20, (x) => (x < 20 ? [200, 0, 0, 255] : [0, 0, 0, 0]))
      .png()
      .toBuffer();

  it('on a colour: the transparent part takes the colour, the subject stays; an opaque JPEG', async () => {
    const out = await composeOnColour(await cutout(), '#3366CC');
    expect(out).toMatchObject({ mediaType: 'image/jpeg', width: 40, height: 20 });
    await expectNoMetadata(out.bytes);
    near(await pixelAt(out.bytes, 5, 10), [200, 0, 0, 255]);
    near(await pixelAt(out.bytes, 35, 10), [0x33, 0x66, 0xcc, 255]);
    for (const colour of ['red', '#12345', '#1234567', 'rgb(0,0,0)', '#GGGGGG']) {
      expect((await refusal(composeOnColour(await cutout(), colour))).code).toBe('VALIDATION_FAILED');
    }
  });

  it('on an image: the background is scaled to cover the subject’s size, its own transparency on white', async () => {
    // A tall background (20 × 60): its middle third is green, so covering 40 × 20 shows only green.
    const background = await pixels(20, 60, (_x, y) => (y >= 20 && y < 40 ? [0, 180, 0, 255] : [0, 0, 255, 255]))
      .png()
      .toBuffer();
    const out = await composeOnImage(await cutout(), background);
    expect(out).toMatchObject({ mediaType: 'image/jpeg', width: 40, height: 20 });
    await expectNoMetadata(out.bytes);
    near(await pixelAt(out.bytes, 5, 10), [200, 0, 0, 255]);
    near(await pixelAt(out.bytes, 35, 10), [0, 180, 0, 255], 20);

    const seeThrough = await pixels(10, 10, () => [0, 0, 0, 0])
      .png()
      .toBuffer();
    near(await pixelAt((await composeOnImage(await cutout(), seeThrough)).bytes, 35, 10), [255, 255, 255, 255], 4);
  });

  it('an unusable background is refused like an upload', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect((await refusal(composeOnImage(await cutout(), svg))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
    const bomb = buildPngImage({ width: 50_000, height: 50_000 });
    expect((await refusal(composeOnImage(await cutout(), bomb))).code).toBe('IMAGE_TOO_LARGE');
  });
});

describe('maskPng', () => {
  /** The mask's pixel values at (x, y). */
  async function maskAt(bytes: Buffer, x: number, y: number) {
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    return data[(y * info.width + x) * info.channels]!;
  }

  it('strokes on a transparent canvas → white there, black elsewhere, at exactly the image’s size', async () => {
    // A 50 × 25 canvas for a 200 × 100 image; the right half painted in half-transparent red.
    const canvas = await pixels(50, 25, (x) => (x >= 25 ? [255, 0, 0, 128] : [0, 0, 0, 0]))
      .png()
      .toBuffer();
    const mask = await maskPng(canvas, 200, 100);
    const meta = await expectNoMetadata(mask);
    expect(meta).toMatchObject({ format: 'png', width: 200, height: 100, channels: 1 });
    expect([await maskAt(mask, 10, 50), await maskAt(mask, 190, 50)]).toEqual([0, 255]);
    const { data } = await sharp(mask).raw().toBuffer({ resolveWithObject: true });
    expect(new Set(data)).toEqual(new Set([0, 255]));
  });

  it('an opaque mask (white on black, a JPEG) marks by lightness', async () => {
    const jpeg = await pixels(64, 64, (_x, y) => (y < 32 ? [255, 255, 255, 255] : [0, 0, 0, 255]))
      .removeAlpha()
      .jpeg()
      .toBuffer();
    const mask = await maskPng(jpeg, 33, 17);
    expect(await sharp(mask).metadata()).toMatchObject({ width: 33, height: 17 });
    expect([await maskAt(mask, 16, 2), await maskAt(mask, 16, 15)]).toEqual([255, 0]);
  });

  it('refuses what is not a PNG or JPEG, and sizes out of range', async () => {
    expect((await refusal(maskPng(Buffer.from('<svg/>'), 10, 10))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
    expect((await refusal(maskPng(await photo(8, 8).webp().toBuffer(), 10, 10))).code).toBe('IMAGE_FORMAT_UNSUPPORTED');
    const png = await photo(8, 8).png().toBuffer();
    for (const [w, h] of [
      [0, 10],
      [10.5, 10],
      [9000, 10],
      [6000, 6000],
    ] as const) {
      await expect(maskPng(png, w, h)).rejects.toThrow(RangeError);
    }
  });
});

describe('bounded work', () => {
  it('libvips runs one thread per image and keeps no cache', () => {
    expect(sharp.concurrency()).toBe(1);
    const cache = sharp.cache() as { items: { current: number; max: number } };
    expect(cache.items.max).toBe(0);
  });

  it('twenty uploads at once are worked on two at a time, and all come back', async () => {
    const work = createImageProcessing({ concurrency: 2 });
    const upload = await photo(800, 600).jpeg().toBuffer();
    let peak = 0;
    let queued = 0;
    const sampler = setInterval(() => {
      const { active, waiting } = work.load();
      peak = Math.max(peak, active);
      queued = Math.max(queued, waiting);
      peak = Math.max(peak, sharp.counters().process);
    }, 1);
    const results = await Promise.all(Array.from({ length: 20 }, () => work.readUpload(upload)));
    clearInterval(sampler);
    expect(results.every((r) => r.width === 800 && r.height === 600)).toBe(true);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
    expect(queued).toBeGreaterThan(10);
    expect(work.load()).toEqual({ active: 0, waiting: 0 });
  });

  it('a refused file does not hold its place: the limiter is free after every failure', async () => {
    const work = createImageProcessing({ concurrency: 1 });
    const cut = (await photo(100, 100).png().toBuffer()).subarray(0, 400);
    for (let i = 0; i < 3; i++) expect((await refusal(work.readUpload(cut))).code).toBe('INVALID_FILE');
    expect(work.load()).toEqual({ active: 0, waiting: 0 });
    expect((await work.readUpload(await photo(10, 10).png().toBuffer())).width).toBe(10);
  });
});
