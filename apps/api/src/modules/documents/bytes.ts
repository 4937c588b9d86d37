/** Bounds-safe readers for binary headers: a read past the end sees zero bytes, so callers check lengths first. */

export function startsWith(bytes: Uint8Array, prefix: ArrayLike<number>, at = 0): boolean {
  if (at < 0 || bytes.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** `text` is ASCII. */
export function startsWithText(bytes: Uint8Array, text: string, at = 0): boolean {
  return startsWith(bytes, asciiBytes(text), at);
}

export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function readUint16BE(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

export function readUint16LE(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function readUint24LE(bytes: Uint8Array, at: number): number {
  return readUint16LE(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

export function readUint32BE(bytes: Uint8Array, at: number): number {
  return readUint16BE(bytes, at) * 0x10000 + readUint16BE(bytes, at + 2);
}

export function readUint32LE(bytes: Uint8Array, at: number): number {
  return readUint16LE(bytes, at) + readUint16LE(bytes, at + 2) * 0x10000;
}
