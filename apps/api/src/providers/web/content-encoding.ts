import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { DomainError } from '../../lib/errors.js';

type Decoder = (body: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as Decoder;
const inflate = promisify(zlib.inflate) as Decoder;
const inflateRaw = promisify(zlib.inflateRaw) as Decoder;
const brotli = promisify(zlib.brotliDecompress) as Decoder;

/** Some servers send raw DEFLATE under "deflate"; a zlib stream starts with a CMF byte whose low nibble is 8. */
function deflateDecoder(body: Buffer): Decoder {
  return body.length > 0 && (body[0]! & 0x0f) === 0x08 ? inflate : inflateRaw;
}

function decoderFor(encoding: string, body: Buffer): Decoder {
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzip;
  if (encoding === 'deflate') return deflateDecoder(body);
  if (encoding === 'br') return brotli;
  throw new DomainError('FETCH_FAILED');
}

async function decodeOnce(body: Buffer, encoding: string, maxDecodedBytes: number): Promise<Buffer> {
  const decode = decoderFor(encoding, body);
  // Z_SYNC_FLUSH: tolerate a truncated stream as browsers do; maxOutputLength stops inflating at the limit.
  const flush = encoding === 'br' ? {} : { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    return await decode(body, { ...flush, maxOutputLength: maxDecodedBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DomainError('FETCH_TOO_LARGE');
    throw new DomainError('FETCH_FAILED');
  }
}

/** Undoes Content-Encoding (applied in order, so undone in reverse), never producing more than `maxDecodedBytes`. */
export async function decodeContent(
  body: Buffer,
  contentEncoding: string | undefined,
  maxDecodedBytes: number,
): Promise<Buffer> {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== 'identity');
  if (encodings.length > 2) throw new DomainError('FETCH_FAILED');
  let decoded = body;
  for (const encoding of encodings.reverse()) decoded = await decodeOnce(decoded, encoding, maxDecodedBytes);
  if (decoded.length > maxDecodedBytes) throw new DomainError('FETCH_TOO_LARGE');
  return decoded;
}
