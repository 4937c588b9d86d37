import { crc32 as crc } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  adobeSegment,
  buildJpegImage,
  buildPngImage,
  cameraExifTiff,
  commentSegment,
  exifSegment,
  iccSegment,
  jfifSegment,
  jpegSegment,
  mpfSegment,
  photoshopSegment,
  pngChunk,
  xmpSegment,
} from '../documents/image-fixtures.js';
import { cleanJpeg, cleanPng, pngMayHaveAlpha } from './clean-copy.js';

// Files built byte by byte (documents' fixtures): what is kept, what goes, and what is left to sharp (null).

const HTML = [...Buffer.from('<html><script>alert(1)</script></html>')];
const latin1 = (text: string) => [...Buffer.from(text, 'latin1')];

/** The chunk types of a PNG, in order. */
function chunkTypes(png: Uint8Array) {
  const file = Buffer.from(png);
  const types: string[] = [];
  for (let pos = 8; pos + 8 <= file.length; pos += 12 + file.readUInt32BE(pos)) {
    types.push(file.toString('latin1', pos + 4, pos + 8));
  }
  return types;
}

/** The markers of a JPEG up to its first scan. */
function markers(jpeg: Uint8Array) {
  const file = Buffer.from(jpeg);
  const found: number[] = [];
  for (let pos = 2; pos + 4 <= file.length && file[pos] === 0xff; pos += 2 + file.readUInt16BE(pos + 2)) {
    found.push(file[pos + 1]!);
    if (file[pos + 1] === 0xda) break;
  }
  return found;
}

describe('cleanJpeg', () => {
  it('keeps JFIF, Adobe, the tables, the frame and the scan; drops Exif with GPS, XMP, IPTC, MPF, comments and the trailer', () => {
    const plain = buildJpegImage({ trailer: HTML });
    const tagged = buildJpegImage({
      segments: [
        jfifSegment(),
        exifSegment(cameraExifTiff()),
        xmpSegment(),
        photoshopSegment(),
        mpfSegment(),
        adobeSegment(),
        commentSegment('Taken at 12 Keizersgracht'),
      ],
      trailer: HTML,
    });
    const copy = cleanJpeg(tagged)!;
    expect(copy).toMatchObject({ width: 16, height: 8, alpha: false });
    expect(markers(copy.bytes)).toEqual([0xe0, 0xee, 0xdb, 0xc0, 0xc4, 0xc4, 0xda]);
    // Everything from the tables on is the original's, byte for byte, and ends at EOI.
    const tables = (bytes: Uint8Array) =>
      Buffer.from(bytes).subarray(Buffer.from(bytes).indexOf(Buffer.from([0xff, 0xdb])));
    expect(tables(copy.bytes).equals(tables(plain).subarray(0, -HTML.length))).toBe(true);
    for (const word of ['ParleyCam', 'GPS', 'Keizersgracht', 'Jane Parley', 'Amsterdam', 'xmpmeta', 'MPF', 'script']) {
      expect(copy.bytes.includes(word), word).toBe(false);
    }
  });

  it('an Exif orientation of 1 goes with its Exif; any other, or Exif it cannot read, is left to sharp', () => {
    expect(cleanJpeg(buildJpegImage({ segments: [exifSegment(cameraExifTiff({ orientation: 1 }))] }))).not.toBeNull();
    for (const orientation of [3, 6, 8]) {
      const littleEndian = orientation !== 8;
      const tiff = cameraExifTiff({ orientation, littleEndian });
      expect(cleanJpeg(buildJpegImage({ segments: [exifSegment(tiff)] })), `orientation ${orientation}`).toBeNull();
    }
    expect(cleanJpeg(buildJpegImage({ segments: [exifSegment([1, 2, 3])] }))).toBeNull();
  });

  it('a colour profile, CMYK, 12 bits or arithmetic coding is left to sharp', () => {
    expect(cleanJpeg(buildJpegImage({ segments: [jfifSegment(), iccSegment()] }))).toBeNull();
    const frame = (file: Uint8Array) => Buffer.from(file).indexOf(Buffer.from([0xff, 0xc0]));
    const cmyk = Buffer.from(buildJpegImage());
    cmyk[frame(cmyk) + 9] = 4; // component count
    expect(cleanJpeg(cmyk)).toBeNull();
    const twelveBits = Buffer.from(buildJpegImage());
    twelveBits[frame(twelveBits) + 4] = 12;
    expect(cleanJpeg(twelveBits)).toBeNull();
    const arithmetic = Buffer.from(buildJpegImage());
    arithmetic[frame(arithmetic) + 1] = 0xc9;
    expect(cleanJpeg(arithmetic)).toBeNull();
  });

  it('a file cut short, bytes between segments, or no scan is left to sharp; fill bytes before a marker are fine', () => {
    const jpeg = Buffer.from(buildJpegImage());
    expect(cleanJpeg(jpeg.subarray(0, -2))).toBeNull(); // no EOI
    expect(cleanJpeg(jpeg.subarray(0, 30))).toBeNull();
    const junk = Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0x00, 0x11]), jpeg.subarray(2)]);
    expect(cleanJpeg(junk)).toBeNull();
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    expect(cleanJpeg(Buffer.concat([jpeg.subarray(0, sos), Buffer.from([0xff, 0xd9])]))).toBeNull();
    const filled = Buffer.concat([jpeg.subarray(0, sos), Buffer.from([0xff, 0xff, 0xff]), jpeg.subarray(sos)]);
    expect(cleanJpeg(filled)!.bytes.equals(jpeg)).toBe(true);
    expect(cleanJpeg(Buffer.from('not a jpeg'))).toBeNull();
  });

  it('a JFIF thumbnail goes; the JFIF segment stays, saying it has none', () => {
    const withThumbnail = jpegSegment(0xe0, [...latin1('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 2, 1, 255, 0, 0, 0, 255, 0]);
    const copy = cleanJpeg(buildJpegImage({ segments: [withThumbnail] }))!;
    expect(copy.bytes.subarray(2, 20)).toEqual(Buffer.from(jfifSegment()));
    expect(copy.bytes.equals(Buffer.from(buildJpegImage()))).toBe(true);
  });

  it('an unknown marker is left to sharp', () => {
    expect(cleanJpeg(buildJpegImage({ segments: [jpegSegment(0xf0, [1, 2, 3])] }))).toBeNull();
  });
});

describe('nothing to drop', () => {
  it('a file with nothing to drop but a trailer is not copied: the result is a view of it, up to the end of the image', () => {
    for (const [file, clean] of [
      [Buffer.from(buildPngImage({ trailer: HTML })), cleanPng],
      [Buffer.from(buildJpegImage({ trailer: HTML })), cleanJpeg],
    ] as const) {
      const copy = clean(file)!;
      expect(copy.bytes.buffer).toBe(file.buffer);
      expect(copy.bytes.equals(file.subarray(0, file.length - HTML.length))).toBe(true);
    }
  });
});

describe('markup in the compressed data', () => {
  const page = (tag: string) => [...latin1(`${tag}alert(document.cookie)</script>`)];

  it('a JPEG whose scan holds a tag is left to sharp (which re-encodes it); other bytes are not', () => {
    const jpeg = Buffer.from(buildJpegImage());
    const end = jpeg.length - 2; // EOI
    const inScan = (bytes: number[]) => Buffer.concat([jpeg.subarray(0, end), Buffer.from(bytes), jpeg.subarray(end)]);
    for (const tag of ['<script>', '<SVG onload=', '<img/', '<!DOCTYPE html>', '<?xml ']) {
      expect(cleanJpeg(inScan(page(tag))), tag).toBeNull();
    }
    for (const text of ['<scripts', '< script>', '<im g>', '<3 <<>>']) {
      expect(cleanJpeg(inScan(page(text))), text).not.toBeNull();
    }
  });

  it('a PNG whose image data holds a page is left to sharp', () => {
    const png = buildPngImage({ afterData: [pngChunk('IDAT', page('<html><body><script>'))] });
    expect(cleanPng(png)).toBeNull();
  });
});

describe('cleanPng', () => {
  const rgbaWith = (beforeData: number[][] = [], afterData: number[][] = [], trailer: number[] = []) =>
    buildPngImage({ beforeData, afterData, trailer });

  it('keeps IHDR, PLTE, tRNS, IDAT and IEND; drops text, time, Exif-free colour notes, animation and the trailer', () => {
    const plain = rgbaWith();
    const tagged = rgbaWith(
      [
        pngChunk('sRGB', [0]),
        pngChunk('gAMA', [0, 0, 0xb1, 0x8f]),
        pngChunk('pHYs', [0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1]),
        pngChunk('acTL', [0, 0, 0, 1, 0, 0, 0, 0]),
        pngChunk('tEXt', latin1('Author\0Jane Parley')),
        pngChunk('iTXt', [...latin1('XML:com.adobe.xmp\0'), 0, 0, 0, ...latin1('<x:xmpmeta>GPS</x:xmpmeta>')]),
        pngChunk('tIME', [7, 232, 5, 17, 18, 42, 9]),
      ],
      [pngChunk('tEXt', latin1('Location\0Amsterdam'))],
      HTML,
    );
    const copy = cleanPng(tagged)!;
    expect(copy).toMatchObject({ width: 1, height: 1, alpha: true });
    expect(chunkTypes(copy.bytes)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(copy.bytes.equals(Buffer.from(plain))).toBe(true);
  });

  it('says whether pixels may be see-through: an alpha channel or a tRNS chunk', () => {
    const rgb = Buffer.from(buildPngImage());
    rgb[8 + 8 + 9] = 2; // IHDR colour type: RGB (the CRC is now wrong: fixed below)
    const fixCrc = (png: Buffer) => {
      png.writeUInt32BE(crc(png.subarray(12, 29)), 29);
      return png;
    };
    expect(cleanPng(fixCrc(rgb))?.alpha).toBe(false);
    const keyed = Buffer.from(buildPngImage({ beforeData: [pngChunk('tRNS', [0, 0, 0, 0, 0, 0])] }));
    keyed[8 + 8 + 9] = 2;
    expect(cleanPng(fixCrc(keyed))).toMatchObject({ alpha: true });
    expect(chunkTypes(cleanPng(fixCrc(keyed))!.bytes)).toEqual(['IHDR', 'tRNS', 'IDAT', 'IEND']);
  });

  it('tells from the headers alone whether pixels may be see-through (when in doubt, they may)', () => {
    const rgb = Buffer.from(buildPngImage());
    rgb[25] = 2;
    expect(pngMayHaveAlpha(rgb)).toBe(false);
    expect(pngMayHaveAlpha(buildPngImage())).toBe(true); // RGBA
    const keyed = Buffer.from(buildPngImage({ beforeData: [pngChunk('tRNS', [0, 0, 0, 0, 0, 0])] }));
    keyed[25] = 2;
    expect(pngMayHaveAlpha(keyed)).toBe(true);
    expect(pngMayHaveAlpha(rgb.subarray(0, 40))).toBe(true);
    expect(pngMayHaveAlpha(Buffer.from('not a png'))).toBe(true);
  });

  it('a colour profile, Exif, 16 bits or an unknown critical chunk is left to sharp', () => {
    expect(cleanPng(rgbaWith([pngChunk('iCCP', [...latin1('p\0'), 0, 0x78, 0x01])]))).toBeNull();
    expect(cleanPng(rgbaWith([pngChunk('eXIf', cameraExifTiff())]))).toBeNull();
    expect(cleanPng(rgbaWith([pngChunk('cICP', [1, 13, 0, 1])]))).toBeNull();
    expect(cleanPng(rgbaWith([pngChunk('ZZZZ', [1])]))).toBeNull();
    const sixteen = Buffer.from(buildPngImage());
    sixteen[8 + 8 + 8] = 16;
    sixteen.writeUInt32BE(crc(sixteen.subarray(12, 29)), 29);
    expect(cleanPng(sixteen)).toBeNull();
  });

  it('a kept chunk with a wrong CRC, a file cut before IEND, or no IHDR first is left to sharp', () => {
    const png = Buffer.from(buildPngImage());
    const badCrc = Buffer.from(png);
    badCrc[png.indexOf('IDAT') + 6] = badCrc[png.indexOf('IDAT') + 6]! ^ 0xff;
    expect(cleanPng(badCrc)).toBeNull();
    expect(cleanPng(png.subarray(0, png.length - 12))).toBeNull();
    expect(cleanPng(png.subarray(0, 20))).toBeNull();
    const idatFirst = Buffer.concat([png.subarray(0, 8), png.subarray(33)]);
    expect(cleanPng(idatFirst)).toBeNull();
    expect(cleanPng(Buffer.from('not a png'))).toBeNull();
  });
});

describe('reuse: the copy made in the bytes given', () => {
  it('a PNG: the chunks before the image data are moved up against it, in the same memory, and the copy is the same', () => {
    const dropped = [
      pngChunk('pHYs', [0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1]),
      pngChunk('tEXt', latin1('GPS\0 52.37')),
    ];
    const given = Buffer.from(buildPngImage({ beforeData: dropped, trailer: HTML }));
    const copied = cleanPng(Buffer.from(given))!;
    const reused = cleanPng(given, { reuse: true })!;
    expect(reused.bytes.buffer).toBe(given.buffer);
    expect(reused.bytes.equals(copied.bytes)).toBe(true);
    expect(reused.bytes.equals(Buffer.from(buildPngImage()))).toBe(true);
    expect(reused.bytes.includes('GPS')).toBe(false);
    expect(reused).toMatchObject({ width: copied.width, height: copied.height, alpha: copied.alpha });
  });

  it('a PNG with chunks to drop after its image data too, and a JPEG with Exif, GPS and comments: the same copy', () => {
    const png = buildPngImage({
      beforeData: [pngChunk('tIME', [7, 232, 5, 17, 18, 42, 9])],
      afterData: [pngChunk('tEXt', latin1('Location\0Amsterdam'))],
    });
    const jpeg = buildJpegImage({
      segments: [jfifSegment(), exifSegment(cameraExifTiff()), commentSegment('Taken at 12 Keizersgracht')],
      trailer: HTML,
    });
    for (const [file, clean] of [
      [png, cleanPng],
      [jpeg, cleanJpeg],
    ] as const) {
      const given = Buffer.from(file);
      const copied = clean(Buffer.from(file))!;
      const reused = clean(given, { reuse: true })!;
      expect(reused.bytes.equals(copied.bytes)).toBe(true);
      expect(reused.bytes.buffer).toBe(given.buffer);
    }
  });

  it('markup is looked for before anything moves: a refused file is left as it was', () => {
    const png = buildPngImage({
      beforeData: [pngChunk('tEXt', latin1('Author\0Jane'))],
      afterData: [pngChunk('IDAT', [...latin1('<html><body><script>')])],
    });
    const given = Buffer.from(png);
    expect(cleanPng(given, { reuse: true })).toBeNull();
    expect(given.equals(Buffer.from(png))).toBe(true);
  });
});
