import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { imageDimensions } from './image.js';
import {
  adobeSegment,
  buildGifImage,
  buildJpegImage,
  buildPhotoGif,
  buildPhotoJpeg,
  buildPhotoPng,
  buildPhotoWebp,
  buildPngImage,
  buildTiff,
  buildWebpImage,
  CAMERA_MAKE,
  cameraExifTiff,
  commentSegment,
  crc32,
  exifSegment,
  gifApplication,
  gifComment,
  gifLoop,
  gifXmp,
  iccSegment,
  jfifSegment,
  jpegSegment,
  mpfSegment,
  pngChunk,
  VP8_1X1,
  VP8L_1X1,
  vp8xChunk,
  webpChunk,
  xmpSegment,
} from './image-fixtures.js';
import { stripImageMetadata } from './image-metadata.js';
import { checkAttachment, type ImageMediaType } from './sniff.js';
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

function occurrences(bytes: Uint8Array, text: string): number {
  const haystack = Buffer.from(bytes);
  let count = 0;
  for (let at = haystack.indexOf(text, 0, 'latin1'); at !== -1; at = haystack.indexOf(text, at + 1, 'latin1')) count++;
  return count;
}

/** Words that only the metadata of the photo fixtures contains. */
const METADATA_WORDS = [
  CAMERA_MAKE,
  'Model 7 Pro',
  '2024:05:17',
  'GPS',
  'xmpmeta',
  'ns.adobe.com/xap',
  'XMP',
  'Photoshop',
  '8BIM',
  'Jane Parley',
  'Amsterdam',
  'Keizersgracht',
  'PARLEYAPP',
  'tracking id',
  'MPF',
];

function expectNoMetadata(bytes: Uint8Array): void {
  for (const word of METADATA_WORDS) expect(occurrences(bytes, word), word).toBe(0);
}

/** What Exif orientation a reader finds: an independent, minimal TIFF walk of IFD0. */
function readOrientation(tiff: Uint8Array): number | undefined {
  const view = Buffer.from(tiff);
  const le = view.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? view.readUInt16LE(at) : view.readUInt16BE(at));
  const u32 = (at: number) => (le ? view.readUInt32LE(at) : view.readUInt32BE(at));
  const ifd = u32(4);
  for (let i = 0; i < u16(ifd); i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) === 0x0112) return u16(entry + 8);
  }
  return undefined;
}

interface JpegSegmentInfo {
  marker: number;
  start: number;
  payload: Uint8Array;
}

/** The segments of a JPEG header up to and including SOS (no fill bytes in the fixtures). */
function jpegHeader(bytes: Uint8Array): JpegSegmentInfo[] {
  const segments: JpegSegmentInfo[] = [];
  let pos = 2;
  for (;;) {
    const marker = bytes[pos + 1] ?? 0;
    const length = ((bytes[pos + 2] ?? 0) << 8) | (bytes[pos + 3] ?? 0);
    segments.push({ marker, start: pos, payload: bytes.subarray(pos + 4, pos + 2 + length) });
    if (marker === 0xda) return segments;
    pos += 2 + length;
  }
}

function sosOffset(bytes: Uint8Array): number {
  return jpegHeader(bytes).at(-1)?.start ?? -1;
}

interface ChunkInfo {
  type: string;
  bytes: Uint8Array;
}

function pngChunks(file: Uint8Array): ChunkInfo[] {
  const bytes = Buffer.from(file);
  const chunks: ChunkInfo[] = [];
  for (let pos = 8; pos < bytes.length;) {
    const length = Buffer.from(bytes).readUInt32BE(pos);
    chunks.push({
      type: Buffer.from(bytes.subarray(pos + 4, pos + 8)).toString('latin1'),
      bytes: bytes.subarray(pos, pos + 12 + length),
    });
    pos += 12 + length;
  }
  return chunks;
}

function webpChunks(file: Uint8Array): ChunkInfo[] {
  const bytes = Buffer.from(file);
  const chunks: ChunkInfo[] = [];
  for (let pos = 12; pos < bytes.length;) {
    const size = Buffer.from(bytes).readUInt32LE(pos + 4);
    const end = pos + 8 + size + (size % 2);
    chunks.push({
      type: Buffer.from(bytes.subarray(pos, pos + 4)).toString('latin1'),
      bytes: bytes.subarray(pos, end),
    });
    pos = end;
  }
  return chunks;
}

function expectAccepted(bytes: Uint8Array, mediaType: ImageMediaType): void {
  expect(checkAttachment({ bytes }).mediaType).toBe(mediaType);
}

/** The TIFF a stripped file keeps: big-endian, IFD0 with Orientation only. */
const orientationTiff = (orientation: number) =>
  buildTiff([{ tag: 0x0112, type: 3, value: [orientation] }], null, false);

describe('stripImageMetadata: JPEG', () => {
  it('drops Exif, XMP, IPTC and comments, and keeps JFIF, ICC, Adobe and the orientation', () => {
    const photo = buildPhotoJpeg({ orientation: 6 });
    expect(occurrences(photo, 'GPS')).toBeGreaterThan(0);
    const stripped = stripImageMetadata(photo, 'image/jpeg');

    expect(stripped).toEqual(
      Buffer.from(
        buildJpegImage({
          width: 16,
          height: 8,
          segments: [jfifSegment(), exifSegment(orientationTiff(6)), iccSegment(), adobeSegment()],
        }),
      ),
    );
    expectNoMetadata(stripped);
    expect(occurrences(stripped, 'Exif')).toBe(1);
    expect(jpegHeader(stripped).map((s) => s.marker)).toEqual([0xe0, 0xe1, 0xe2, 0xee, 0xdb, 0xc0, 0xc4, 0xc4, 0xda]);
  });

  it('writes the orientation back whatever byte order the camera used', () => {
    for (const [orientation, littleEndian] of [
      [6, true],
      [8, false],
      [3, true],
      [2, false],
    ] as const) {
      const stripped = stripImageMetadata(buildPhotoJpeg({ orientation, littleEndian }), 'image/jpeg');
      const exif = jpegHeader(stripped).find((s) => s.marker === 0xe1);
      expect(Buffer.from(exif?.payload.subarray(0, 6) ?? []).toString('latin1')).toBe('Exif\0\0');
      expect(readOrientation(exif?.payload.subarray(6) ?? new Uint8Array())).toBe(orientation);
      expect(exif?.payload.length).toBe(6 + 26);
    }
  });

  it('puts the orientation right after SOI when there is no JFIF segment', () => {
    const jpeg = buildJpegImage({ segments: [exifSegment(cameraExifTiff({ orientation: 5 })), iccSegment()] });
    const stripped = stripImageMetadata(jpeg, 'image/jpeg');
    expect(jpegHeader(stripped).map((s) => s.marker)).toEqual([0xe1, 0xe2, 0xdb, 0xc0, 0xc4, 0xc4, 0xda]);
    expect(stripped.subarray(2, 4)).toEqual(Buffer.from([0xff, 0xe1]));
  });

  it('writes no Exif at all when the orientation is normal, missing or not a valid value', () => {
    const cases = [
      cameraExifTiff({ orientation: 1 }),
      cameraExifTiff({}),
      cameraExifTiff({ orientation: 9 }),
      cameraExifTiff({ orientation: 0 }),
      buildTiff([{ tag: 0x0112, type: 4, value: [6] }], null, true), // a LONG is not how Orientation is written
      buildTiff([{ tag: 0x0112, type: 3, value: [] }], null, false), // count 0
    ];
    for (const tiff of cases) {
      const stripped = stripImageMetadata(
        buildJpegImage({ segments: [jfifSegment(), exifSegment(tiff)] }),
        'image/jpeg',
      );
      expect(occurrences(stripped, 'Exif')).toBe(0);
      expect(stripped).toEqual(Buffer.from(buildJpegImage({ segments: [jfifSegment()] })));
    }
  });

  it('drops a broken Exif block instead of failing or reading past it', () => {
    const header = [...Buffer.from('Exif\0\0', 'latin1')];
    const broken = [
      [...header, ...Buffer.from('XX*\0', 'latin1'), 8, 0, 0, 0], // unknown byte order
      [...header, ...Buffer.from('II+\0', 'latin1'), 8, 0, 0, 0], // not 42
      [...header, ...Buffer.from('II*\0', 'latin1'), 0xff, 0xff, 0, 0], // IFD0 past the end
      [...header, ...Buffer.from('MM\0*', 'latin1'), 0, 0, 0, 4, 0, 1], // IFD0 inside the header
      [...header, ...Buffer.from('MM\0*', 'latin1'), 0, 0, 0, 8, 0xff, 0xff, 0x01, 0x12, 0, 3], // 65535 entries
      [...header, ...Buffer.from('II', 'latin1')], // cut off
      [...Buffer.from('Exif\0', 'latin1')],
    ];
    for (const payload of broken) {
      const jpeg = buildJpegImage({ segments: [jfifSegment(), jpegSegment(0xe1, payload)] });
      expect(stripImageMetadata(jpeg, 'image/jpeg')).toEqual(
        Buffer.from(buildJpegImage({ segments: [jfifSegment()] })),
      );
    }
  });

  it('keeps the compressed image data byte for byte from SOS on', () => {
    const photo = buildPhotoJpeg();
    const stripped = stripImageMetadata(photo, 'image/jpeg');
    expect(stripped.subarray(sosOffset(stripped))).toEqual(Buffer.from(photo.subarray(sosOffset(photo))));

    // Scan data with stuffed bytes (FF 00), restart markers and fill bytes, and two scans as in a progressive file.
    const scans = [
      ...[0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xd1, 0x00],
      ...jpegSegment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]),
      ...jpegSegment(0xda, [1, 1, 0x00, 1, 63, 0]),
      ...[0xff, 0x00, 0xff, 0x00, 0x7f],
    ];
    const jpeg = buildJpegImage({ segments: [jfifSegment(), exifSegment(cameraExifTiff())] });
    const sos = sosOffset(jpeg);
    const sosEnd = sos + 10;
    const progressive = new Uint8Array([...jpeg.subarray(0, sosEnd), ...scans, 0xff, 0xd9]);
    const out = stripImageMetadata(progressive, 'image/jpeg');
    expect(out.subarray(sosOffset(out))).toEqual(Buffer.from(progressive.subarray(sos)));
  });

  it('drops metadata segments placed between scans', () => {
    const jpeg = buildJpegImage();
    const eoi = jpeg.length - 2;
    const withLateComment = new Uint8Array([
      ...jpeg.subarray(0, eoi),
      ...commentSegment('Jane Parley'),
      ...xmpSegment(),
      ...jpeg.subarray(eoi),
    ]);
    expect(stripImageMetadata(withLateComment, 'image/jpeg')).toEqual(Buffer.from(jpeg));
  });

  it('drops what is appended after EOI, such as a second image with its own Exif', () => {
    const trailer = [...buildPhotoJpeg()];
    const photo = buildPhotoJpeg({ trailer });
    const stripped = stripImageMetadata(photo, 'image/jpeg');
    expect(stripped).toEqual(stripImageMetadata(buildPhotoJpeg(), 'image/jpeg'));
    expectNoMetadata(stripped);
    expect([...stripped.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('drops MPF, which indexes those appended images, and a JFXX thumbnail, but keeps ICC', () => {
    const jfxx = jpegSegment(0xe0, [...Buffer.from('JFXX\0', 'latin1'), 0x10, 0xff, 0xd8, 0xff, 0xd9]);
    const jpeg = buildJpegImage({ segments: [jfifSegment(), jfxx, mpfSegment(), iccSegment(40)] });
    expect(stripImageMetadata(jpeg, 'image/jpeg')).toEqual(
      Buffer.from(buildJpegImage({ segments: [jfifSegment(), iccSegment(40)] })),
    );
  });

  it('drops APP3 to APP13 and APP15, and keeps segments it does not treat as metadata', () => {
    const app = (marker: number) => jpegSegment(marker, [...Buffer.from('Jane Parley', 'latin1')]);
    const dri = jpegSegment(0xdd, [0, 0]);
    const jpeg = buildJpegImage({
      segments: [
        jfifSegment(),
        ...[0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xef].map(app),
        dri,
      ],
    });
    const stripped = stripImageMetadata(jpeg, 'image/jpeg');
    expect(stripped).toEqual(Buffer.from(buildJpegImage({ segments: [jfifSegment(), dri] })));
  });

  it('gives output that still passes the attachment check and has the same size, and is stable', () => {
    const photo = buildPhotoJpeg();
    const stripped = stripImageMetadata(photo, 'image/jpeg');
    expectAccepted(stripped, 'image/jpeg');
    expect(imageDimensions(stripped, 'image/jpeg')).toEqual(imageDimensions(photo, 'image/jpeg'));
    expect(stripImageMetadata(stripped, 'image/jpeg')).toEqual(stripped);
    expect(stripImageMetadata(buildJpeg(), 'image/jpeg')).toEqual(Buffer.from(buildJpeg()));
  });

  it('keeps a file that stops inside the scan data as it is', () => {
    const jpeg = buildJpegImage({ width: 64, height: 64, segments: [jfifSegment(), commentSegment('hi')] });
    const cut = jpeg.slice(0, jpeg.length - 4);
    expect(stripImageMetadata(cut, 'image/jpeg')).toEqual(
      Buffer.from(buildJpegImage({ width: 64, height: 64 }).slice(0, -4)),
    );
  });

  it('refuses broken structure with INVALID_FILE', () => {
    const jpeg = buildPhotoJpeg();
    const sos = sosOffset(jpeg);
    const cases = [
      jpeg.slice(0, 2), // SOI only
      jpeg.slice(0, 30), // inside a segment
      jpeg.slice(0, sos), // no scan
      jpeg.slice(0, sos + 5), // inside the SOS header
      new Uint8Array([0xff, 0xd8, 0x00, ...jpeg.subarray(2)]), // a byte between segments
      new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x01, ...jpeg.subarray(2)]), // length below 2
      new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), // no scan
      buildPng(),
      new Uint8Array(),
    ];
    for (const bytes of cases)
      expect(domainError(() => stripImageMetadata(bytes, 'image/jpeg')).code).toBe('INVALID_FILE');
  });
});

describe('stripImageMetadata: PNG', () => {
  it('drops eXIf, text and time chunks, keeps the rest byte for byte, and keeps the orientation', () => {
    const photo = buildPhotoPng();
    const stripped = stripImageMetadata(photo, 'image/png');
    const kept = pngChunks(stripped);
    expect(kept.map((c) => c.type)).toEqual(['IHDR', 'eXIf', 'sRGB', 'gAMA', 'pHYs', 'IDAT', 'IEND']);
    expectNoMetadata(stripped);

    const original = pngChunks(photo);
    for (const chunk of kept.filter((c) => c.type !== 'eXIf')) {
      expect(chunk.bytes).toEqual(original.find((c) => c.type === chunk.type)?.bytes);
    }
    const exif = kept[1]?.bytes ?? new Uint8Array();
    expect(exif).toEqual(Buffer.from(pngChunk('eXIf', orientationTiff(6))));
    expect(readOrientation(exif.subarray(8, -4))).toBe(6);
    expect(Buffer.from(exif).readUInt32BE(exif.length - 4)).toBe(crc32([...exif.subarray(4, -4)]));

    expectAccepted(stripped, 'image/png');
    expect(stripImageMetadata(stripped, 'image/png')).toEqual(stripped);
  });

  it('reads the orientation of an eXIf written with a JPEG-style "Exif" prefix', () => {
    const exif = pngChunk('eXIf', [...Buffer.from('Exif\0\0', 'latin1'), ...cameraExifTiff({ orientation: 8 })]);
    const stripped = stripImageMetadata(buildPngImage({ beforeData: [exif] }), 'image/png');
    expect(stripped).toEqual(Buffer.from(buildPngImage({ beforeData: [pngChunk('eXIf', orientationTiff(8))] })));
  });

  it('leaves a PNG without metadata as it is, and keeps animation and colour chunks', () => {
    expect(stripImageMetadata(buildPng(), 'image/png')).toEqual(Buffer.from(buildPng()));
    const apng = buildPngImage({
      beforeData: [
        pngChunk('iCCP', [...Buffer.from('sRGB\0\0', 'latin1'), 0x78, 0x01]),
        pngChunk('acTL', [0, 0, 0, 2, 0, 0, 0, 0]),
        pngChunk('tRNS', [0, 0]),
        pngChunk('bKGD', [0, 0, 0, 0, 0, 0]),
        pngChunk('fcTL', new Array<number>(26).fill(0)),
        pngChunk('tEXt', [...Buffer.from('Software\0Parley', 'latin1')]),
      ],
      afterData: [pngChunk('fcTL', new Array<number>(26).fill(1)), pngChunk('fdAT', [0, 0, 0, 2, 1, 2, 3])],
    });
    expect(pngChunks(stripImageMetadata(apng, 'image/png')).map((c) => c.type)).toEqual([
      'IHDR',
      'iCCP',
      'acTL',
      'tRNS',
      'bKGD',
      'fcTL',
      'IDAT',
      'fcTL',
      'fdAT',
      'IEND',
    ]);
  });

  it('drops bytes appended after IEND', () => {
    const png = buildPngImage({ trailer: [...Buffer.from('PK\x03\x04 Jane Parley', 'latin1')] });
    expect(stripImageMetadata(png, 'image/png')).toEqual(Buffer.from(buildPngImage()));
  });

  it('refuses broken structure with INVALID_FILE', () => {
    const png = buildPhotoPng();
    const withChunkType = (type: string) => {
      const copy = Uint8Array.from(png);
      copy.set(Buffer.from(type, 'latin1'), 37); // the second chunk's type
      return copy;
    };
    const hugeLength = Uint8Array.from(png);
    hugeLength.set([0x80, 0, 0, 0], 33);
    const cases = [
      png.slice(0, png.length - 12), // no IEND
      png.slice(0, png.length - 1),
      png.slice(0, 8),
      hugeLength,
      withChunkType('sR G'),
      withChunkType('sR\0G'),
      buildPngImage().slice(33), // no signature
      new Uint8Array([...png.subarray(0, 8), ...pngChunk('IDAT', []), ...png.subarray(8)]), // IHDR not first
    ];
    for (const bytes of cases)
      expect(domainError(() => stripImageMetadata(bytes, 'image/png')).code).toBe('INVALID_FILE');
  });
});

describe('stripImageMetadata: WebP', () => {
  it('drops EXIF and XMP, clears their flags, fixes the RIFF size, and keeps the frame byte for byte', () => {
    const photo = buildPhotoWebp();
    const stripped = stripImageMetadata(photo, 'image/webp');
    expect(stripped).toEqual(
      Buffer.from(
        buildWebpImage([
          vp8xChunk({ width: 1, height: 1, flags: 0x20 }),
          webpChunk(
            'ICCP',
            Array.from({ length: 33 }, (_, i) => i),
          ),
          webpChunk('VP8 ', VP8_1X1),
        ]),
      ),
    );
    expectNoMetadata(stripped);
    expect(occurrences(stripped, 'EXIF')).toBe(0);
    expect(stripped.readUInt32LE(4)).toBe(stripped.length - 8);
    expect(webpChunks(stripped).find((c) => c.type === 'VP8 ')?.bytes).toEqual(
      webpChunks(photo).find((c) => c.type === 'VP8 ')?.bytes,
    );
    expectAccepted(stripped, 'image/webp');
    expect(imageDimensions(stripped, 'image/webp')).toEqual({ width: 1, height: 1 });
    expect(stripImageMetadata(stripped, 'image/webp')).toEqual(stripped);
  });

  it('keeps animation, alpha and lossless chunks and the other flags', () => {
    const frame = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, ...webpChunk('VP8L', VP8L_1X1)];
    const animated = buildWebpImage([
      vp8xChunk({ width: 1, height: 1, flags: 0x10 | 0x08 | 0x04 | 0x02 }),
      webpChunk('ANIM', [0, 0, 0, 0, 0, 0]),
      webpChunk('ANMF', frame),
      webpChunk('ANMF', frame),
      webpChunk('XMP ', [...Buffer.from('<x:xmpmeta/>', 'latin1')]),
      webpChunk('EXIF', cameraExifTiff()),
    ]);
    expect(stripImageMetadata(animated, 'image/webp')).toEqual(
      Buffer.from(
        buildWebpImage([
          vp8xChunk({ width: 1, height: 1, flags: 0x10 | 0x02 }),
          webpChunk('ANIM', [0, 0, 0, 0, 0, 0]),
          webpChunk('ANMF', frame),
          webpChunk('ANMF', frame),
        ]),
      ),
    );
    const alpha = buildWebpImage([
      vp8xChunk({ width: 1, height: 1, flags: 0x10 }),
      webpChunk('ALPH', [0, 0xff]),
      webpChunk('VP8 ', VP8_1X1),
    ]);
    expect(stripImageMetadata(alpha, 'image/webp')).toEqual(Buffer.from(alpha));
    expect(stripImageMetadata(buildWebp(), 'image/webp')).toEqual(Buffer.from(buildWebp()));
  });

  it('drops bytes after the RIFF chunk and restores a missing final pad byte', () => {
    const webp = buildWebpImage([webpChunk('VP8L', VP8L_1X1)], [...Buffer.from('Jane Parley', 'latin1')]);
    expect(stripImageMetadata(webp, 'image/webp')).toEqual(Buffer.from(buildWebp()));

    const unpadded = Uint8Array.from(buildWebp().subarray(0, -1));
    Buffer.from(unpadded.buffer).writeUInt32LE(unpadded.length - 8, 4);
    expect(stripImageMetadata(unpadded, 'image/webp')).toEqual(Buffer.from(buildWebp()));
  });

  it('refuses broken structure with INVALID_FILE', () => {
    const webp = buildPhotoWebp();
    const riffTooLong = Uint8Array.from(webp);
    Buffer.from(riffTooLong.buffer).writeUInt32LE(webp.length, 4);
    const chunkTooLong = Uint8Array.from(webp);
    Buffer.from(chunkTooLong.buffer).writeUInt32LE(1000, 16);
    const cases = [
      webp.slice(0, webp.length - 3),
      webp.slice(0, 16),
      riffTooLong,
      chunkTooLong,
      buildWebpImage([webpChunk('ICCP', [1, 2]), webpChunk('VP8L', VP8L_1X1)]), // not a WebP first chunk
      buildWebpImage([webpChunk('VP8L', VP8L_1X1), [0x41, 0x42, 0x43]]), // half a chunk header
      buildWebpImage([]),
      buildGif(),
    ];
    for (const bytes of cases)
      expect(domainError(() => stripImageMetadata(bytes, 'image/webp')).code).toBe('INVALID_FILE');
  });
});

describe('stripImageMetadata: GIF', () => {
  it('drops comments, XMP and unknown applications, and keeps the loop, colour profile and frames', () => {
    const photo = buildPhotoGif();
    const stripped = stripImageMetadata(photo, 'image/gif');
    expect(stripped).toEqual(
      Buffer.from(buildGifImage({ frames: 2, extensions: [gifLoop(), gifApplication('ICCRGBG1012', [0, 0, 0, 0])] })),
    );
    expectNoMetadata(stripped);
    expectAccepted(stripped, 'image/gif');
    expect(imageDimensions(stripped, 'image/gif')).toEqual({ width: 1, height: 1 });
    expect(stripImageMetadata(stripped, 'image/gif')).toEqual(stripped);
  });

  it('walks the XMP magic trailer and comments between frames', () => {
    const frames = buildGifImage({ frames: 1 });
    const header = frames.subarray(0, 19); // header, screen, global colour table
    const frame = frames.subarray(19, frames.length - 1);
    const gif = new Uint8Array([
      ...header,
      ...gifXmp('<x:xmpmeta>' + 'é'.repeat(400) + '</x:xmpmeta>'),
      ...frame,
      ...gifComment('Jane Parley '.repeat(40)),
      ...frame,
      ...gifXmp(),
      0x3b,
    ]);
    expect(stripImageMetadata(gif, 'image/gif')).toEqual(Buffer.from([...header, ...frame, ...frame, 0x3b]));
  });

  it('keeps GIF87a and the classic 1×1 GIF as they are', () => {
    expect(stripImageMetadata(buildGif(), 'image/gif')).toEqual(Buffer.from(buildGif()));
    const gif87 = Uint8Array.from(buildGifImage());
    gif87.set(Buffer.from('87a', 'latin1'), 3);
    expect(stripImageMetadata(gif87, 'image/gif')).toEqual(Buffer.from(gif87));
  });

  it('drops bytes after the trailer, and adds a trailer to a file that ends between blocks', () => {
    const gif = buildGifImage({ trailer: [0x3b, ...Buffer.from('Jane Parley', 'latin1')] });
    expect(stripImageMetadata(gif, 'image/gif')).toEqual(Buffer.from(buildGifImage()));
    expect(stripImageMetadata(buildGifImage({ trailer: [] }), 'image/gif')).toEqual(Buffer.from(buildGifImage()));
  });

  it('refuses broken structure with INVALID_FILE', () => {
    const gif = buildPhotoGif();
    const cases = [
      gif.slice(0, 12), // inside the screen descriptor
      gif.slice(0, 15), // inside the global colour table
      gif.slice(0, 30), // inside the loop extension
      gif.slice(0, gif.length - 3), // inside the last frame's data
      buildGifImage({ trailer: [0x00] }), // not a block
      buildGifImage({ trailer: [0x2c, 0, 0, 0, 0] }), // half an image descriptor
      buildGifImage({ trailer: [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0x87, 1, 2, 3] }), // local colour table cut off
      buildGifImage({ trailer: [0x21] }), // extension without a label
      buildGifImage({ trailer: [0x21, 0xfe, 5, 1, 2] }), // sub-block cut off
      buildPng(),
    ];
    for (const bytes of cases)
      expect(domainError(() => stripImageMetadata(bytes, 'image/gif')).code).toBe('INVALID_FILE');
  });
});

describe('stripImageMetadata and imageDimensions on damaged files', () => {
  /** mulberry32: a small seeded generator, so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const samples: [string, ImageMediaType, Uint8Array][] = [
    ['JPEG', 'image/jpeg', buildPhotoJpeg()],
    [
      'JPEG with an appended image',
      'image/jpeg',
      buildPhotoJpeg({ littleEndian: false, trailer: [...buildPhotoJpeg()] }),
    ],
    ['PNG', 'image/png', buildPhotoPng()],
    ['GIF', 'image/gif', buildPhotoGif()],
    ['WebP', 'image/webp', buildPhotoWebp()],
  ];

  it.each(samples)(
    '%s: cut or flipped bytes give a result or a DomainError, never anything else',
    (_name, mediaType, sample) => {
      const next = random(sample.length);
      const started = Date.now();
      let refused = 0;
      let stripped = 0;
      for (let round = 0; round < 1500; round++) {
        let bytes: Uint8Array;
        if (round % 3 === 0) {
          bytes = sample.slice(0, Math.floor(next() * sample.length));
        } else {
          bytes = Uint8Array.from(sample);
          const flips = 1 + Math.floor(next() * 4);
          for (let i = 0; i < flips; i++) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
        }
        const dims = imageDimensions(bytes, mediaType);
        if (dims) expect(Number.isInteger(dims.width) && Number.isInteger(dims.height)).toBe(true);
        let out: Buffer;
        try {
          out = stripImageMetadata(bytes, mediaType);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('INVALID_FILE');
          refused++;
          continue;
        }
        stripped++;
        expect(out.length).toBeLessThanOrEqual(bytes.length + 64);
        expect(stripImageMetadata(out, mediaType)).toEqual(out);
        expect(imageDimensions(out, mediaType)).toEqual(dims);
      }
      expect(refused).toBeGreaterThan(0);
      expect(stripped).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    },
  );

  it('walks megabytes of scan data full of stuffed bytes quickly', () => {
    const jpeg = buildJpegImage({ scan: false });
    const sosEnd = sosOffset(jpeg) + 10;
    const scan = new Uint8Array(8 * 1024 * 1024);
    for (let i = 0; i < scan.length; i += 2) scan.set([0xff, i % 16 === 0 ? 0xd0 + ((i >> 4) % 8) : 0x00], i);
    const big = new Uint8Array([...jpeg.subarray(0, sosEnd), ...scan, 0xff, 0xd9]);
    const started = Date.now();
    const out = stripImageMetadata(big, 'image/jpeg');
    expect(out.length).toBe(big.length);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
