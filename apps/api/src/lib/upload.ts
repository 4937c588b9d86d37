import multipart from '@fastify/multipart';
import type { ErrorCode } from '@parley/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from './errors.js';
import { MultipartError, multipartBoundary, parseMultipart, type MultipartLimits } from './multipart.js';

/**
 * Uploads (multipart/form-data): their limits, and the one reader every upload route uses. Whatever is wrong with a
 * body is a 4xx with a message: a limit names the limit, a malformed body says so, a slow one is a 408.
 */

const FILE_SIZE_MB = 25;
const FILES = 5;

/** The limits of every multipart body, streamed (@fastify/multipart) or read at once (lib/multipart.ts). */
export const UPLOAD_LIMITS: MultipartLimits = {
  fileSize: FILE_SIZE_MB * 1024 * 1024,
  files: FILES,
  fields: 10,
  fieldSize: 256 * 1024,
  parts: 20,
  headerPairs: 100,
};

/**
 * Registers the routes that take a multipart body, in a scope of their own with @fastify/multipart. The plugin adds
 * a hook to every request and another to every answer of the scope it is registered in (to remove files saved to
 * disk, which Parley never does); registered once for the whole app, they ran on every request (two promises and a
 * listener each time). Any other route answers a multipart body with 415.
 */
export function multipartRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => void) {
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: UPLOAD_LIMITS });
    register(scope);
  });
}

/** A limit a person hit, by @fastify/multipart's code or by the code the one-pass reader refuses with. */
const LIMITS: { codes: string[]; code: ErrorCode; value: number }[] = [
  { codes: ['FST_REQ_FILE_TOO_LARGE', 'FILE_TOO_LARGE'], code: 'FILE_TOO_LARGE', value: FILE_SIZE_MB },
  { codes: ['FST_FILES_LIMIT', 'TOO_MANY_FILES'], code: 'TOO_MANY_FILES', value: FILES },
];

export function limitOf(code: string): { code: ErrorCode; value: number } | undefined {
  return LIMITS.find((l) => l.codes.includes(code));
}

/** A file part: its bytes, the name and type the sender declared (never trusted), and the form field it came in. */
export type Upload = { bytes: Buffer; name: string; declaredType: string; field: string };

/** Bodies up to this size are read whole and parsed in one pass; larger ones stream through @fastify/multipart. */
const SMALL_BODY = 256 * 1024;

/** Errors of the streamed reader that already say what the client did wrong (limits); anything else is malformed. */
const KNOWN_MULTIPART_CODES = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/** A small body (a chat request is usually a few hundred bytes): read whole, then parsed with the same limits. */
async function readSmallMultipart(
  request: FastifyRequest,
  boundary: string,
  fileFields: readonly string[],
  limits: MultipartLimits,
) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > SMALL_BODY) throw new DomainError('MALFORMED_UPLOAD');
  }
  let parsed;
  try {
    parsed = parseMultipart(Buffer.concat(chunks, size), boundary, limits);
  } catch (error) {
    // A limit is answered by the error handler with the limit; a malformed body (cut short, say) is said so.
    if (error instanceof MultipartError && error.code === 'BAD_REQUEST') throw new DomainError('MALFORMED_UPLOAD');
    throw error;
  }
  if (parsed.files.some((f) => !fileFields.includes(f.fieldname))) throw new DomainError('BAD_REQUEST');
  const files: Upload[] = parsed.files.map((f) => ({
    bytes: f.bytes,
    name: f.filename,
    declaredType: f.mimeType,
    field: f.fieldname,
  }));
  return { fields: parsed.fields, files };
}

/** A large body, streamed: the limits are enforced by @fastify/multipart as it reads. */
async function readStreamedMultipart(request: FastifyRequest, fileFields: readonly string[], limits: MultipartLimits) {
  const fields: Record<string, string> = {};
  const files: Upload[] = [];
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'file') {
        if (!fileFields.includes(part.fieldname)) {
          await part.toBuffer();
          throw new DomainError('BAD_REQUEST');
        }
        files.push({
          bytes: await part.toBuffer(),
          name: part.filename ?? '',
          declaredType: part.mimetype ?? '',
          field: part.fieldname,
        });
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof DomainError || (typeof code === 'string' && KNOWN_MULTIPART_CODES.has(code))) throw error;
    // busboy's "Unexpected end of form", a bad part header, a connection cut mid-body: the body is malformed.
    throw new DomainError('MALFORMED_UPLOAD');
  }
  return { fields, files };
}

/**
 * Reads a multipart body: JSON fields by name, files in order (only in the `fileField` field or fields), within
 * UPLOAD_LIMITS (or a route's own smaller file size and count, `own`: a route that takes one small file reads no
 * more than that), and within `timeoutMs`: a body that takes longer is refused (408) and its connection closed, so
 * a slow sender holds nothing for long. A limit hit is said with the limit that applied (the route's own, when
 * smaller): TOO_MANY_FILES with the file count, FILE_TOO_LARGE with the size in MB.
 */
export async function readMultipart(
  request: FastifyRequest,
  fileField: string | readonly string[],
  timeoutMs: number,
  own: Partial<Pick<MultipartLimits, 'fileSize' | 'files'>> = {},
) {
  const limits: MultipartLimits = {
    ...UPLOAD_LIMITS,
    fileSize: Math.min(own.fileSize ?? UPLOAD_LIMITS.fileSize, UPLOAD_LIMITS.fileSize),
    files: Math.min(own.files ?? UPLOAD_LIMITS.files, UPLOAD_LIMITS.files),
  };
  const fileFields = typeof fileField === 'string' ? [fileField] : fileField;
  if (!request.isMultipart()) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
  const boundary = multipartBoundary(request.headers['content-type']);
  if (!boundary) throw new DomainError('MALFORMED_UPLOAD');
  const length = Number(request.headers['content-length']);
  const reading =
    length <= SMALL_BODY
      ? readSmallMultipart(request, boundary, fileFields, limits)
      : readStreamedMultipart(request, fileFields, limits);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DomainError('REQUEST_TIMEOUT')), timeoutMs);
  });
  try {
    return await Promise.race([reading, late]);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const limit = typeof code === 'string' ? limitOf(code)?.code : undefined;
    if (limit === 'TOO_MANY_FILES') throw new DomainError(limit, { limit: limits.files });
    if (limit === 'FILE_TOO_LARGE') throw new DomainError(limit, { limit: limits.fileSize / (1024 * 1024) });
    throw error;
  } finally {
    clearTimeout(timer);
    reading.catch(() => undefined); // abandoned on a timeout: it fails when the connection closes
  }
}
