import { DomainError } from '../../lib/errors.js';

export const JPEG_MARKER = {
  SOI: 0xd8,
  EOI: 0xd9,
  SOS: 0xda,
  APP0: 0xe0,
  APP1: 0xe1,
  APP2: 0xe2,
  APP14: 0xee,
  COM: 0xfe,
} as const;

/**
 * One piece of a JPEG after its SOI. A `marker` part runs from the marker's 0xFF (fill bytes before it are not
 * included) to the end of its segment; a `scan-data` part is the entropy-coded data after an SOS header, with its
 * stuffed bytes and RST markers, up to the next marker.
 */
export type JpegPart =
  { kind: 'marker'; marker: number; start: number; end: number } | { kind: 'scan-data'; start: number; end: number };

/**
 * The parts of a JPEG in file order, up to and including EOI; whatever follows EOI is not visited.
 *
 * Throws INVALID_FILE where the structure breaks (no SOI, bytes between segments, a segment running past the end).
 * A stream that simply stops is not an error here: the caller decides whether what it saw is enough.
 */
export function* jpegParts(bytes: Uint8Array): Generator<JpegPart> {
  if (bytes[0] !== 0xff || bytes[1] !== JPEG_MARKER.SOI) throw new DomainError('INVALID_FILE');
  let pos = 2;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) throw new DomainError('INVALID_FILE');
    while (bytes[pos] === 0xff) pos++; // Any number of 0xFF may pad the space before a marker.
    const marker = bytes[pos];
    if (marker === undefined || marker === 0x00 || marker === JPEG_MARKER.SOI) throw new DomainError('INVALID_FILE');
    const start = pos - 1;
    pos++;
    if (isStandalone(marker)) {
      yield { kind: 'marker', marker, start, end: pos };
      if (marker === JPEG_MARKER.EOI) return;
      continue;
    }
    if (pos + 2 > bytes.length) throw new DomainError('INVALID_FILE');
    const length = ((bytes[pos] ?? 0) << 8) | (bytes[pos + 1] ?? 0);
    if (length < 2 || pos + length > bytes.length) throw new DomainError('INVALID_FILE');
    pos += length;
    yield { kind: 'marker', marker, start, end: pos };
    if (marker === JPEG_MARKER.SOS) {
      const end = scanDataEnd(bytes, pos);
      if (end > pos) yield { kind: 'scan-data', start: pos, end };
      pos = end;
    }
  }
}

/** SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15: the frame headers. C4 (DHT), C8 (JPG) and CC (DAC) are not. */
export function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** TEM, RST0–RST7 and EOI carry no length. (SOI does not either, but is only valid as the first marker.) */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= JPEG_MARKER.EOI);
}

/**
 * Where the entropy-coded data starting at `from` ends: the 0xFF of the first marker that is not a stuffed byte
 * (FF 00) or a restart marker (FF D0–D7). Fill bytes before that marker are left out. The end of the buffer if none.
 */
function scanDataEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff === -1) return bytes.length;
    let next = ff + 1;
    while (bytes[next] === 0xff) next++;
    const byte = bytes[next];
    if (byte === undefined) return bytes.length;
    if (byte !== 0x00 && (byte < 0xd0 || byte > 0xd7)) return ff;
    at = next + 1;
  }
}
