/**
 * Small, valid images built byte by byte for the image tests, with the metadata real cameras and editors write (Exif
 * with GPS, XMP, IPTC, comments, text chunks). Only tests import this file.
 */

const latin1 = (text: string) => [...Buffer.from(text, 'latin1')];
const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];
const u16be = (n: number) => [(n >>> 8) & 0xff, n & 0xff];
const u16le = (n: number) => [n & 0xff, (n >>> 8) & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

export const XMP_PACKET =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ' +
  'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" ' +
  'exif:GPSLatitude="52,22.34N" exif:GPSLongitude="4,53.57E"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

// --- Exif (TIFF) ---

export interface TiffEntry {
  tag: number;
  /** 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL (numerator, denominator pairs), 7 UNDEFINED. */
  type: 1 | 2 | 3 | 4 | 5 | 7;
  value: string | number[];
}

/** A TIFF structure: header, IFD0 with `ifd0`, and when `gps` is given a GPS IFD that IFD0 points to. */
export function buildTiff(ifd0: TiffEntry[], gps: TiffEntry[] | null, littleEndian: boolean): number[] {
  const u16 = littleEndian ? u16le : u16be;
  const u32 = littleEndian ? u32le : u32be;
  const encode = (entry: TiffEntry): number[] => {
    if (typeof entry.value === 'string') return [...latin1(entry.value), 0];
    if (entry.type === 3) return entry.value.flatMap(u16);
    if (entry.type === 4 || entry.type === 5) return entry.value.flatMap(u32);
    return entry.value;
  };
  const count = (entry: TiffEntry) =>
    typeof entry.value === 'string'
      ? entry.value.length + 1
      : entry.type === 5
        ? entry.value.length / 2
        : entry.value.length;
  const pad = (n: number) => n + (n % 2);
  const ifdSize = (entries: TiffEntry[]) =>
    2 +
    entries.length * 12 +
    4 +
    entries.reduce((sum, e) => sum + (encode(e).length > 4 ? pad(encode(e).length) : 0), 0);

  const writeIfd = (entries: TiffEntry[], at: number): number[] => {
    const sorted = [...entries].sort((a, b) => a.tag - b.tag);
    const head: number[] = [...u16(sorted.length)];
    const data: number[] = [];
    let dataAt = at + 2 + sorted.length * 12 + 4;
    for (const entry of sorted) {
      const raw = encode(entry);
      head.push(...u16(entry.tag), ...u16(entry.type), ...u32(count(entry)));
      if (raw.length <= 4) {
        head.push(...raw, ...new Array<number>(4 - raw.length).fill(0));
      } else {
        head.push(...u32(dataAt));
        data.push(...raw, ...(raw.length % 2 ? [0] : []));
        dataAt += pad(raw.length);
      }
    }
    return [...head, ...u32(0), ...data];
  };

  const ifd0Entries = gps ? [...ifd0, { tag: 0x8825, type: 4 as const, value: [0] }] : ifd0;
  const gpsAt = 8 + ifdSize(ifd0Entries);
  if (gps) ifd0Entries[ifd0Entries.length - 1] = { tag: 0x8825, type: 4, value: [gpsAt] };
  return [
    ...latin1(littleEndian ? 'II' : 'MM'),
    ...u16(42),
    ...u32(8),
    ...writeIfd(ifd0Entries, 8),
    ...(gps ? writeIfd(gps, gpsAt) : []),
  ];
}

export const CAMERA_MAKE = 'ParleyCam';

/** What a phone writes: make, model, date, optionally an Orientation, and a GPS IFD with a position. */
export function cameraExifTiff({
  orientation,
  littleEndian = true,
}: { orientation?: number; littleEndian?: boolean } = {}): number[] {
  const ifd0: TiffEntry[] = [
    { tag: 0x010f, type: 2, value: CAMERA_MAKE },
    { tag: 0x0110, type: 2, value: 'Model 7 Pro' },
    { tag: 0x0132, type: 2, value: '2024:05:17 18:42:09' },
  ];
  if (orientation !== undefined) ifd0.push({ tag: 0x0112, type: 3, value: [orientation] });
  const gps: TiffEntry[] = [
    { tag: 0x0000, type: 1, value: [2, 2, 0, 0] },
    { tag: 0x0001, type: 2, value: 'N' },
    { tag: 0x0002, type: 5, value: [52, 1, 22, 1, 2034, 100] },
    { tag: 0x0003, type: 2, value: 'E' },
    { tag: 0x0004, type: 5, value: [4, 1, 53, 1, 3442, 100] },
    { tag: 0x001b, type: 7, value: latin1('ASCII\0\0\0GPS fused') },
  ];
  return buildTiff(ifd0, gps, littleEndian);
}

// --- JPEG ---

export function jpegSegment(marker: number, payload: number[]): number[] {
  return [0xff, marker, ...u16be(payload.length + 2), ...payload];
}

export const jfifSegment = () => jpegSegment(0xe0, [...latin1('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
export const exifSegment = (tiff: number[]) => jpegSegment(0xe1, [...latin1('Exif\0\0'), ...tiff]);
export const xmpSegment = (packet = XMP_PACKET) =>
  jpegSegment(0xe1, [...latin1('http://ns.adobe.com/xap/1.0/\0'), ...utf8(packet)]);
/** An ICC_PROFILE APP2 (chunk 1 of 1) around `size` bytes of stand-in profile data. */
export const iccSegment = (size = 128) =>
  jpegSegment(0xe2, [...latin1('ICC_PROFILE\0'), 1, 1, ...Array.from({ length: size }, (_, i) => i & 0xff)]);
export const mpfSegment = () => jpegSegment(0xe2, [...latin1('MPF\0'), ...latin1('MM'), 0, 42, 0, 0, 0, 8, 0, 0]);
/** Photoshop 3.0 image resource block 0x0404 (IPTC) with a By-line (2:80) and a City (2:90). */
export const photoshopSegment = () => {
  const iptc = [0x1c, 2, 80, ...u16be(11), ...latin1('Jane Parley'), 0x1c, 2, 90, ...u16be(9), ...latin1('Amsterdam')];
  return jpegSegment(0xed, [
    ...latin1('Photoshop 3.0\0'),
    ...latin1('8BIM'),
    ...u16be(0x0404),
    0,
    0,
    ...u32be(iptc.length),
    ...iptc,
    ...(iptc.length % 2 ? [0] : []),
  ]);
};
/** Adobe APP14: DCTEncodeVersion 100, no flags, transform 0 (no colour conversion). */
export const adobeSegment = () => jpegSegment(0xee, [...latin1('Adobe'), 0, 100, 0, 0, 0, 0, 0]);
export const commentSegment = (text: string) => jpegSegment(0xfe, latin1(text));

/**
 * A baseline greyscale JPEG that decoders accept: every 8×8 block is flat mid-grey, coded with one-symbol Huffman
 * tables (DC difference 0, then end-of-block) so the scan is two zero bits per block. `segments` go right after SOI;
 * `trailer` is appended after EOI. With `scan: false` the scan holds one byte only, enough to read headers of huge
 * claimed sizes.
 */
export function buildJpegImage({
  width = 16,
  height = 8,
  segments = [jfifSegment()],
  trailer = [],
  scan = true,
}: { width?: number; height?: number; segments?: number[][]; trailer?: number[]; scan?: boolean } = {}): Uint8Array {
  const dqt = jpegSegment(0xdb, [0x00, ...new Array<number>(64).fill(1)]);
  const sof0 = jpegSegment(0xc0, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]);
  const oneSymbolTable = (classAndId: number) =>
    jpegSegment(0xc4, [classAndId, 1, ...new Array<number>(15).fill(0), 0x00]);
  const sos = jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = 2 * blocks;
  const data = scan ? new Array<number>(Math.ceil(bits / 8)).fill(0) : [0];
  // Pad the last byte with 1 bits; it always keeps at least one 0 bit, so no 0xFF needs stuffing.
  if (scan && bits % 8 !== 0) data[data.length - 1] = 0xff >> (bits % 8);
  return new Uint8Array([
    0xff,
    0xd8,
    ...segments.flat(),
    ...dqt,
    ...sof0,
    ...oneSymbolTable(0x00),
    ...oneSymbolTable(0x10),
    ...sos,
    ...data,
    0xff,
    0xd9,
    ...trailer,
  ]);
}

/** A JPEG as a phone writes it: JFIF, Exif with GPS and Orientation, XMP, ICC, IPTC, Adobe, a comment. */
export function buildPhotoJpeg({
  orientation = 6,
  littleEndian = true,
  trailer = [],
}: { orientation?: number; littleEndian?: boolean; trailer?: number[] } = {}): Uint8Array {
  return buildJpegImage({
    width: 16,
    height: 8,
    segments: [
      jfifSegment(),
      exifSegment(cameraExifTiff({ orientation, littleEndian })),
      xmpSegment(),
      iccSegment(),
      photoshopSegment(),
      adobeSegment(),
      commentSegment('Taken at 12 Keizersgracht'),
    ],
    trailer,
  });
}

// --- PNG ---

export function pngChunk(type: string, data: number[]): number[] {
  const typeAndData = [...latin1(type), ...data];
  return [...u32be(data.length), ...typeAndData, ...u32be(crc32(typeAndData))];
}

/**
 * A 1×1 RGBA PNG with real CRCs; `beforeData` chunks go between IHDR and IDAT, `afterData` between IDAT and IEND.
 * `width` and `height` only change what IHDR claims.
 */
export function buildPngImage({
  width = 1,
  height = 1,
  beforeData = [],
  afterData = [],
  trailer = [],
}: {
  width?: number;
  height?: number;
  beforeData?: number[][];
  afterData?: number[][];
  trailer?: number[];
} = {}): Uint8Array {
  const ihdr = [...u32be(width), ...u32be(height), 8, 6, 0, 0, 0];
  // zlib stream of one scanline (filter byte 0 + 4 bytes of RGBA), stored uncompressed, with its Adler-32.
  const scanline = [0, 0x20, 0x40, 0x60, 0xff];
  const idat = [0x78, 0x01, 0x01, 0x05, 0x00, 0xfa, 0xff, ...scanline, ...u32be(adler32(scanline))];
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...pngChunk('IHDR', ihdr),
    ...beforeData.flat(),
    ...pngChunk('IDAT', idat),
    ...afterData.flat(),
    ...pngChunk('IEND', []),
    ...trailer,
  ]);
}

/** A PNG as an editor writes it: colour chunks, physical size, and every kind of text and Exif. */
export function buildPhotoPng(): Uint8Array {
  return buildPngImage({
    beforeData: [
      pngChunk('sRGB', [0]),
      pngChunk('gAMA', u32be(45455)),
      pngChunk('pHYs', [...u32be(2835), ...u32be(2835), 1]),
      pngChunk('eXIf', cameraExifTiff({ orientation: 6, littleEndian: false })),
      pngChunk('tEXt', latin1('Author\0Jane Parley')),
      pngChunk('zTXt', [...latin1('Comment\0'), 0, 0x78, 0x01, 0x01, 0x03, 0x00, 0xfc, 0xff, 0x47, 0x50, 0x53]),
      pngChunk('iTXt', [...latin1('XML:com.adobe.xmp\0'), 0, 0, 0, ...utf8(XMP_PACKET)]),
      pngChunk('tIME', [...u16be(2024), 5, 17, 18, 42, 9]),
    ],
    afterData: [pngChunk('tEXt', latin1('Location\0Amsterdam'))],
  });
}

// --- GIF ---

/**
 * A GIF89a with a two-colour global table and `frames` 1×1 frames (the second and later with a local colour table);
 * `extensions` go before the first frame. `width` and `height` are the logical screen.
 */
export function buildGifImage({
  width = 1,
  height = 1,
  extensions = [],
  frames = 1,
  trailer = [0x3b],
}: { width?: number; height?: number; extensions?: number[][]; frames?: number; trailer?: number[] } = {}): Uint8Array {
  const frame = (index: number) => [
    ...[0x21, 0xf9, 0x04, 0x04, 10, 0, 0, 0], // graphic control: 0.1 s delay
    ...[0x2c, 0, 0, 0, 0, ...u16le(1), ...u16le(1)],
    ...(index === 0 ? [0x00] : [0x80, 0xff, 0, 0, 0, 0, 0xff]),
    ...[0x02, 0x02, 0x44, 0x01, 0x00], // LZW minimum code size 2, one sub-block, terminator
  ];
  return new Uint8Array([
    ...latin1('GIF89a'),
    ...u16le(width),
    ...u16le(height),
    ...[0x80, 0, 0],
    ...[0, 0, 0, 0xff, 0xff, 0xff],
    ...extensions.flat(),
    ...Array.from({ length: frames }, (_, i) => frame(i)).flat(),
    ...trailer,
  ]);
}

export function gifSubBlocks(data: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const block = data.slice(i, i + 255);
    out.push(block.length, ...block);
  }
  return [...out, 0];
}

export const gifComment = (text: string) => [0x21, 0xfe, ...gifSubBlocks(latin1(text))];
export const gifApplication = (identifier: string, data: number[]) => [
  0x21,
  0xff,
  11,
  ...latin1(identifier),
  ...gifSubBlocks(data),
];
export const gifLoop = () => gifApplication('NETSCAPE2.0', [1, 0, 0]);
/**
 * XMP as Adobe writes it into a GIF: the raw packet straight after the identifier, then a 258-byte "magic trailer"
 * (1, 255, 254, …, 1, 0, 0) so that a reader walking sub-blocks through the packet lands on a terminator.
 */
export const gifXmp = (packet = XMP_PACKET) => [
  0x21,
  0xff,
  11,
  ...latin1('XMP DataXMP'),
  ...utf8(packet),
  1,
  ...Array.from({ length: 256 }, (_, i) => 255 - i),
  0,
];

export function buildPhotoGif(): Uint8Array {
  return buildGifImage({
    width: 1,
    height: 1,
    frames: 2,
    extensions: [
      gifLoop(),
      gifComment('Made by Jane Parley in Amsterdam'),
      gifXmp(),
      gifApplication('ICCRGBG1012', [0, 0, 0, 0]),
      gifApplication('PARLEYAPPx1', latin1('tracking id 42')),
    ],
  });
}

// --- WebP ---

/** The chunk data of a 1×1 lossless frame. */
export const VP8L_1X1 = [0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07];
/** The chunk data of a 1×1 lossy key frame. */
export const VP8_1X1 = [
  0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x01, 0x00, 0x01, 0x00, 0x0e, 0xc0, 0xfe, 0x25, 0xa4, 0x00, 0x03, 0x70, 0x00,
  0x00, 0x00, 0x00,
];

export function webpChunk(fourCC: string, data: number[]): number[] {
  return [...latin1(fourCC), ...u32le(data.length), ...data, ...(data.length % 2 ? [0] : [])];
}

export function vp8xChunk({ width, height, flags }: { width: number; height: number; flags: number }): number[] {
  const u24le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
  return webpChunk('VP8X', [flags, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
}

export function buildWebpImage(chunks: number[][], trailer: number[] = []): Uint8Array {
  const body = chunks.flat();
  return new Uint8Array([...latin1('RIFF'), ...u32le(4 + body.length), ...latin1('WEBP'), ...body, ...trailer]);
}

/** VP8X with an ICC profile, EXIF (GPS) and XMP around a 1×1 lossy frame. Flags: ICC 0x20, EXIF 0x08, XMP 0x04. */
export function buildPhotoWebp(): Uint8Array {
  return buildWebpImage([
    vp8xChunk({ width: 1, height: 1, flags: 0x20 | 0x08 | 0x04 }),
    webpChunk(
      'ICCP',
      Array.from({ length: 33 }, (_, i) => i),
    ),
    webpChunk('VP8 ', VP8_1X1),
    webpChunk('EXIF', cameraExifTiff({ orientation: 3 })),
    webpChunk('XMP ', utf8(XMP_PACKET)),
  ]);
}

// --- helpers ---

function adler32(bytes: number[]): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

export function crc32(bytes: number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
