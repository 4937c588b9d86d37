import { isIP } from 'node:net';
import { APICallError } from '@ai-sdk/provider';
import { IMAGE_MAX_MEGAPIXELS, type AspectRatio, type ImageModelInfo } from '@parley/contract';
import { NoImageGeneratedError, RetryError, type GeneratedFile } from 'ai';
import sharp, { type SharpOptions } from 'sharp';
import { decodeBase64 } from '../../lib/base64.js';
import { DomainError } from '../../lib/errors.js';
import { createLimiter } from '../../lib/limiter.js';
import { classifyAddress, classifyHostname } from '../web/address-policy.js';
import { ImageRefusedError, type ImageBytes } from './types.js';

type Fetch = typeof globalThis.fetch;

/** What every adapter is built with: the model, its provider's key and address, and how requests go out. */
export type AdapterSettings = {
  info: ImageModelInfo;
  apiKey: string | undefined;
  /** The provider's API (its public one when unset); for the OpenAI-compatible server, always set. */
  baseUrl: string | undefined;
  /** The provider's model name (for the OpenAI-compatible server, the one it is configured with). */
  modelName: string;
  /** For requests to the base URL's origin (see `outbound`). */
  fetch: Fetch;
  /** For every other URL (results on a CDN, wherever an answer points): refuses private addresses. */
  resultFetch: Fetch;
  /** How often a job is asked whether it is done (Black Forest Labs, Replicate). */
  pollIntervalMs: number;
  /** Longest a job is polled for before giving up (the caller's signal usually ends it sooner). */
  pollTimeoutMs: number;
  /** Retries of a call that failed on the way (connection, 5xx, 429). */
  maxRetries: number;
};

/** Headers that carry a provider key (OpenAI, fal and Replicate: authorization; Black Forest Labs: x-key). */
const KEY_HEADERS = ['authorization', 'x-key', 'api-key'];

/**
 * A fetch that sends the key only where `allowKey` says: the provider packages add their key to every request,
 * including downloads of results from other hosts (Black Forest Labs' delivery URLs, an OpenAI-compatible server's
 * image URLs). Elsewhere the request goes without it.
 */
export function keyGuard(fetch: Fetch, allowKey: (url: URL) => boolean): Fetch {
  return (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (allowKey(url)) return fetch(input, init);
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const name of KEY_HEADERS) headers.delete(name);
    return fetch(input, { ...init, headers });
  };
}

/** The key goes to the origin of the base URL only. */
export const sameOrigin = (base: string) => {
  const origin = new URL(base).origin;
  return (url: URL) => url.origin === origin;
};

/** A host on this machine or its network (not a forbidden one: metadata, reserved), by name or address (no DNS). */
function isPrivateHost(hostname: string) {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return (isIP(host) ? classifyAddress(host) : classifyHostname(host)) === 'private';
}

/**
 * The fetch an adapter's provider package is given: requests to the base URL's origin go out on `settings.fetch`
 * (the address the configuration or the person named); anything else — results on a CDN, wherever a provider's
 * answer points — on `settings.resultFetch`, which refuses private and reserved addresses, so that a provider cannot
 * make Parley fetch from its own network. The one exception: when the base URL is itself on a private host (a local
 * Stable Diffusion, a test server), results on that same host (any port) go out as the base URL's requests do.
 */
export function outbound(settings: AdapterSettings, baseUrl: string): Fetch {
  const base = new URL(baseUrl);
  const localHost = isPrivateHost(base.hostname) ? base.hostname : null;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const trusted = url.origin === base.origin || (localHost !== null && url.hostname === localHost);
    return (trusted ? settings.fetch : settings.resultFetch)(input, init);
  };
}

const startsWith = (b: Uint8Array, at: number, expected: readonly number[]) =>
  b.length >= at + expected.length && expected.every((byte, i) => b[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const isPng = (b: Uint8Array) => startsWith(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isJpeg = (b: Uint8Array) => startsWith(b, 0, [0xff, 0xd8, 0xff]);
const isWebp = (b: Uint8Array) => startsWith(b, 0, ascii('RIFF')) && startsWith(b, 8, ascii('WEBP'));

/**
 * A provider's result by its first bytes, never decoded here: PNG, JPEG or WebP (Replicate's default), whatever the
 * provider says it is; anything else (SVG, TIFF, GIF, HTML) is a failure. Decoding happens once, in the images
 * module, under its limiter, caps and timeout (its normalizeOutput also turns WebP into PNG or JPEG).
 */
export function asImageBytes(data: Uint8Array): ImageBytes {
  if (isPng(data)) return { bytes: data, mediaType: 'image/png' };
  if (isJpeg(data)) return { bytes: data, mediaType: 'image/jpeg' };
  if (isWebp(data)) return { bytes: data, mediaType: 'image/webp' };
  throw new Error('The provider returned something that is not a PNG, JPEG or WebP image');
}

export const fromFiles = async (files: GeneratedFile[]) => files.map((f) => asImageBytes(fileBytes(f)));

/**
 * A generated file's bytes. Providers answering base64 (most do) leave the AI SDK's file holding the string, and its
 * `uint8Array` getter decodes it in JavaScript a character at a time (about 12 ms for a 2 MP PNG); Node's decoder does
 * it natively (under 1 ms). `base64Data` is the SDK's own cache field, read when it is there, the getter otherwise.
 */
export function fileBytes(file: GeneratedFile): Uint8Array {
  const base64 = (file as { base64Data?: unknown }).base64Data;
  return typeof base64 === 'string' ? decodeBase64(base64) : file.uint8Array;
}

/**
 * Decoding in transparentWhereWhite, as the images module decodes: a corrupt or cut-off file refused, nothing larger
 * than it keeps, never longer than MASK_TIMEOUT (what it is given comes from that module, but is not relied on).
 */
const MASK_DECODE: SharpOptions = { failOn: 'error', limitInputPixels: IMAGE_MAX_MEGAPIXELS * 1_000_000 };
const MASK_TIMEOUT = { seconds: 20 };
/** One mask at a time: its pixels and the image's size of them are held while it is made, off the images limiter. */
const maskLimiter = createLimiter(1);
/**
 * Masks waiting for their turn, at most: a longer queue answers "try again shortly" at once (the edit is refunded)
 * rather than holding every edit behind it until its time is up.
 */
export const MASKS_WAITING_MAX = 8;

/**
 * A mask as OpenAI's edits endpoint (and the servers that copy it) reads one: a PNG the size of the image, transparent
 * where the image may change. Ours is white where it may change, black elsewhere (any size: it is stretched). Both
 * must be PNG or JPEG by their bytes; the image is only measured (its header), the mask decoded.
 */
export async function transparentWhereWhite(
  mask: ImageBytes,
  image: ImageBytes,
  signal: AbortSignal = new AbortController().signal,
): Promise<ImageBytes> {
  for (const { bytes } of [mask, image])
    if (!isPng(bytes) && !isJpeg(bytes)) throw new Error('The image or its mask is not a PNG or JPEG');
  if (maskLimiter.waiting >= MASKS_WAITING_MAX) throw new DomainError('SERVICE_UNAVAILABLE');
  // An edit whose time is up while it waits leaves the queue.
  const release = await maskLimiter.acquireUnless(signal);
  try {
    return await maskFor(mask, image);
  } catch (error) {
    throw new Error(`The mask could not be made: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    release();
  }
}

/** transparentWhereWhite's work, on a PNG or JPEG mask and image. */
async function maskFor(mask: ImageBytes, image: ImageBytes): Promise<ImageBytes> {
  const { width, height } = await sharp(image.bytes, MASK_DECODE).metadata();
  if (!width || !height || width * height > IMAGE_MAX_MEGAPIXELS * 1_000_000)
    throw new Error('The image to edit has no size, or too large a one');
  const alpha = await sharp(mask.bytes, MASK_DECODE)
    .timeout(MASK_TIMEOUT)
    .flatten({ background: '#000000' })
    .resize(width, height, { fit: 'fill' })
    .greyscale()
    .negate({ alpha: false })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const png = await sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .timeout(MASK_TIMEOUT)
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return { bytes: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), mediaType: 'image/png' };
}

export const base64 = (image: ImageBytes) => Buffer.from(image.bytes).toString('base64');

const SAFETY =
  /content_policy_violation|moderation_blocked|safety (system|checker|filter)|request moderated|content moderated|nsfw/i;
const SIZE = /\b(size|image_size|width|height|aspect_ratio|aspect ratio|dimensions?|resolution)\b/i;

/** The text of a provider's error answer, for recognising refusals (never the request: it holds people's images). */
function answerText(error: APICallError) {
  const body = typeof error.responseBody === 'string' ? error.responseBody.slice(0, 4000) : '';
  return `${error.message}\n${body}`;
}

function param(error: APICallError): unknown {
  const data = error.data as { error?: { param?: unknown } } | undefined;
  return data?.error?.param;
}

/** True when the error, or one it was caused by, is the fetch's refusal of an oversized answer. */
function tooLarge(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1)
    if ((e as NodeJS.ErrnoException).code === 'ERESPONSETOOLARGE') return true;
  return false;
}

/**
 * What a failed call becomes: the caller's own abort reason when its signal ended it; ImageRefusedError for a refusal
 * (safety filter; a size or shape the provider does not make); otherwise a plain Error with the provider's status and
 * a short message. The AI SDK's errors are not passed on: they carry the request's body (people's prompts and images).
 */
export function failure(provider: string, error: unknown, signal: AbortSignal): Error {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
  let cause = error;
  if (RetryError.isInstance(cause)) cause = cause.lastError;
  if (cause instanceof ImageRefusedError) return cause;
  if (tooLarge(cause)) return new Error(`${provider}: an answer was larger than Parley accepts`);
  if (APICallError.isInstance(cause)) {
    const text = answerText(cause);
    if (SAFETY.test(text)) return new ImageRefusedError('safety', `${provider} refused the request (safety)`);
    const status = cause.statusCode;
    if ((status === 400 || status === 422) && (param(cause) === 'size' || SIZE.test(text)))
      return new ImageRefusedError('size', `${provider} does not make this size: ${cause.message.slice(0, 200)}`);
    return new Error(`${provider}${status ? ` ${status}` : ''}: ${cause.message.slice(0, 300)}`);
  }
  if (NoImageGeneratedError.isInstance(cause)) return new Error(`${provider}: no image was returned`);
  if (cause instanceof Error) return new Error(`${provider}: ${cause.message.slice(0, 300)}`);
  return new Error(`${provider}: the call failed`);
}

/**
 * `count` images made `perCall` at a time. Calls that fail while others succeed count as `missing`; when none
 * succeeds, the first refusal (else the first failure) is thrown. `call(n)` makes up to n images.
 */
export async function makeImages(
  count: number,
  perCall: number,
  call: (n: number) => Promise<ImageBytes[]>,
): Promise<{ images: ImageBytes[]; missing: number }> {
  const sizes: number[] = [];
  for (let left = count; left > 0; left -= perCall) sizes.push(Math.min(perCall, left));
  const settled = await Promise.allSettled(sizes.map((n) => call(n)));
  const images = settled.flatMap((s) => (s.status === 'fulfilled' ? s.value.slice(0, count) : []));
  if (images.length === 0) {
    const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    const refusal = errors.find((e) => e instanceof ImageRefusedError);
    throw refusal ?? errors[0] ?? new ImageRefusedError('safety', 'every image was withheld by the safety filter');
  }
  return { images: images.slice(0, count), missing: Math.max(0, count - images.length) };
}

/** Refuses a shape the model does not make and a count it does not allow, before anything is sent. */
export function checkRequest(info: ImageModelInfo, aspectRatio: AspectRatio, count: number) {
  if (!info.aspectRatios.includes(aspectRatio))
    throw new ImageRefusedError('size', `${info.label} does not make ${aspectRatio} images`);
  if (!Number.isInteger(count) || count < 1 || count > info.maxImages)
    throw new Error(`${info.label} makes 1 to ${info.maxImages} images per request`);
}

/** For an operation the model does not have (the caller checks the catalogue's abilities first). */
export function cannot(info: ImageModelInfo, what: string): never {
  throw new Error(`${info.label} cannot ${what}`);
}

/** `Prefer`-style sizes: the `{width}x{height}` the AI SDK passes on. */
export type Size = `${number}x${number}`;
