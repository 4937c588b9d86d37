/**
 * Characters decoded at a time: a multiple of 4 (whole quanta), small enough that the copy Node makes of each piece
 * before decoding it comes from memory the allocator already holds.
 */
const PIECE = 32 * 1024;
const EQUALS = 0x3d;

/**
 * `text.slice(start, end)` decoded as base64, the same bytes as `Buffer.from(value, 'base64')`, without a copy of
 * the whole value. Node decodes a string by first copying it into memory of its own (its length in bytes, or twice
 * that); for a 2 MP PNG from an images API that is a 7 MB copy a call, and memory the process has not touched yet
 * is slow to get on a virtual machine (bench/images.ts; docs/benchmarks.md). Decoded a piece at a time, each copy is
 * small and reused, and only the decoded bytes are new memory.
 *
 * Each piece before the last must decode to exactly three bytes for every four characters: a character Node would
 * skip (a space, a line break, a stray '=') shifts the quanta after it, and such a value is decoded whole instead.
 */
export function decodeBase64(text: string, start = 0, end = text.length): Buffer {
  let last = end;
  while (last > start && text.charCodeAt(last - 1) === EQUALS) last--;
  if (end - start <= PIECE) return Buffer.from(text.slice(start, end), 'base64');
  const out = Buffer.allocUnsafeSlow(Math.floor(((last - start) * 3) / 4));
  let written = 0;
  for (let at = start; at < end; at += PIECE) {
    const to = Math.min(at + PIECE, end);
    const wrote = out.write(text.slice(at, to), written, 'base64');
    if (to < end && wrote !== (PIECE / 4) * 3) return Buffer.from(text.slice(start, end), 'base64');
    written += wrote;
  }
  return written === out.length ? out : out.subarray(0, written);
}
