import { promises as dns } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { isBlockedAddress } from '../web/address-policy.js';

/**
 * The `fetch` handed to the AI SDK provider packages (`createOpenAICompatible({ ..., fetch })` and the others).
 * Node's built-in fetch spends about half a millisecond per request in its Request, Response and stream machinery,
 * on the critical path of a chat's first token; this one writes the request with `node:http` on keep-alive sockets
 * and hands the response's chunks to the provider package as they arrive. It does what the provider packages need:
 * JSON POST requests, server-sent-event responses, multipart uploads. What it leaves out, on purpose:
 * - Redirects are not followed: the 3xx response is returned as is. Provider APIs do not redirect, and a redirect
 *   must not carry our API keys to another host.
 * - No default headers (accept, accept-encoding, user-agent): the provider packages set what their APIs need. A
 *   compressed response is decoded anyway, as fetch does.
 * - No cookies, cache, credentials or CORS modes; those `RequestInit` fields are ignored.
 */

export type ProviderFetchOptions = {
  /** Refuse loopback, private, link-local and metadata addresses, checked on the addresses actually connected to. */
  blockPrivate?: boolean;
  /** For tests: replaces DNS resolution (same shape as dns.promises.lookup with { all: true }). */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /** Requests held until a condition is met (see createRequestHolds); none are held without it. */
  holds?: RequestHolds;
  /**
   * The most bytes a response body may have (after any content decoding); no limit when unset. A larger declared
   * content-length is refused before the body is read, and a body that grows past it is cut off: either way with an
   * error whose code is `ERESPONSETOOLARGE`.
   */
  maxResponseBytes?: number;
};

type Resolve = NonNullable<ProviderFetchOptions['lookup']>;
type Agents = { http: http.Agent; https: https.Agent };
type Outgoing = { headers: Record<string, string>; body: string | Uint8Array | null };

/** The code of the error a refused address rejects with. Not a network error code: retrying cannot help. */
const BLOCKED = 'EADDRBLOCKED';
/** The code of the error a response over `maxResponseBytes` fails with; not retryable either. */
const TOO_LARGE = 'ERESPONSETOOLARGE';
/** Idle keep-alive sockets are closed after this; a socket in use is never cut by it. */
const IDLE_TIMEOUT_MS = 30_000;
/**
 * What a write or read on a reused keep-alive socket fails with when the server closed it meanwhile (a server's idle
 * timeout firing as the request goes out, or a hint the agent could not honour in time because the event loop was
 * busy). Such a request is sent again, at most this many times.
 */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
const STALE_SOCKET_RETRIES = 2;
/** Headers the transport owns: the body's length is ours to say, and the agent decides about the connection. */
const TRANSPORT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
/**
 * How much of a response may wait for its reader before the socket is paused. Pausing and resuming a socket are
 * system calls; with a queue of one chunk (the web streams' default) a streamed answer would make two per token.
 */
const BUFFERED = new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 });

/** The methods fetch upper-cases; any other keeps its case, as in fetch. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

const normalizedMethod = (method: string) => {
  const upper = method.toUpperCase();
  return NORMALIZED_METHODS.has(upper) ? upper : method;
};

const systemLookup: Resolve = (hostname) => dns.lookup(hostname, { all: true });

function blockedError(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} is a private or reserved address (${address})`);
  error.code = BLOCKED;
  return error;
}

function tooLargeError(limit: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`the response is larger than ${limit} bytes`);
  error.code = TOO_LARGE;
  return error;
}

/**
 * The agents' DNS lookup when private addresses are refused (or DNS is replaced): every answer is checked, not only
 * the one connected to, since with several answers the socket may try any of them (and a rebinding needs only one).
 */
function agentLookup(resolve: Resolve, blockPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const blocked = blockPrivate ? answers.find((answer) => isBlockedAddress(answer.address)) : undefined;
        if (blocked) return callback(blockedError(hostname, blocked.address), '');
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? answers.filter((answer) => answer.family === family) : answers;
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          return callback(error, '');
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

function createAgents(options: ProviderFetchOptions): Agents {
  // lifo: the most recently used socket is the one least likely to have been closed by the server meanwhile.
  const settings: http.AgentOptions = { keepAlive: true, scheduling: 'lifo', timeout: IDLE_TIMEOUT_MS };
  if (options.blockPrivate || options.lookup)
    settings.lookup = agentLookup(options.lookup ?? systemLookup, options.blockPrivate ?? false);
  return { http: new http.Agent(settings), https: new https.Agent(settings) };
}

function headersFrom(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!init) return headers;
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    if (TRANSPORT_HEADERS.has(key)) return;
    const previous = headers[key];
    headers[key] = previous === undefined ? value : `${previous}, ${value}`;
  };
  if (init instanceof Headers) init.forEach((value, name) => add(name, value));
  else if (Array.isArray(init)) for (const [name, value] of init) add(name!, value!);
  else for (const name in init) if (init[name] !== undefined) add(name, init[name]!);
  return headers;
}

/**
 * Bytes and strings go out as they are; anything else (FormData, Blob, URLSearchParams, a stream) is serialized the
 * way fetch would, which for FormData is also where the multipart boundary of the content type comes from.
 */
async function outgoing(init: RequestInit, request: Request | null): Promise<Outgoing> {
  const headers = headersFrom(init.headers ?? request?.headers);
  let body: BodyInit | null | undefined = init.body;
  if (body === undefined && request?.body) body = new Uint8Array(await request.arrayBuffer());
  if (body === undefined || body === null) return { headers, body: null };
  if (typeof body === 'string') {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    return { headers, body };
  }
  if (body instanceof Uint8Array) return { headers, body };
  if (body instanceof ArrayBuffer) return { headers, body: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) return { headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  const serialized = new Response(body);
  const type = serialized.headers.get('content-type');
  if (type !== null) headers['content-type'] ??= type;
  return { headers, body: new Uint8Array(await serialized.arrayBuffer()) };
}

/** Connection-level failures look the way fetch reports them, which the AI SDK turns into retryable errors. */
function fetchFailed(cause: unknown): unknown {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === BLOCKED || code === TOO_LARGE) return cause;
  return new TypeError('fetch failed', { cause });
}

function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

/** Undoes Content-Encoding as fetch does, flushing every chunk so a compressed event stream is not held back. */
function decoded(response: IncomingMessage): Readable | null {
  const header = response.headers['content-encoding'];
  if (!header) return null;
  const decoders: Transform[] = [];
  for (const coding of header.toLowerCase().split(',').reverse()) {
    const name = coding.trim();
    if (name === 'gzip' || name === 'x-gzip')
      decoders.push(
        zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      );
    else if (name === 'deflate')
      decoders.push(
        zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      );
    else if (name === 'br')
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    else if (name !== 'identity' && name !== '') return null; // unknown coding: the body is handed over as sent
  }
  if (decoders.length === 0) return null;
  // Errors reach the last decoder, which is what the body reads from; pipeline's own callback has nothing to add.
  pipeline([response, ...decoders], () => {});
  return decoders[decoders.length - 1]!;
}

function responseHeaders(response: IncomingMessage, decoding: boolean): [string, string][] {
  const raw = response.rawHeaders;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (decoding) {
      const key = name.toLowerCase();
      if (key === 'content-encoding' || key === 'content-length') continue;
    }
    headers.push([name, raw[i + 1]!]);
  }
  return headers;
}

/**
 * The response body as a web stream fed straight from the socket: Buffers are enqueued as they are, and the socket
 * is paused while the reader is behind. `done` runs once, when the body ends, fails or is cancelled. The returned
 * `fail` ends it from outside (the caller's signal). Past `maxBytes` the body fails, and the connection is closed.
 */
function bodyStream(response: IncomingMessage, source: Readable, done: () => void, maxBytes: number) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const finish = () => {
    if (!open) return false;
    open = false;
    done();
    return true;
  };
  const fail = (reason: unknown) => {
    if (finish()) controller.error(reason);
    response.destroy(); // an unfinished response takes its socket with it: it is never reused mid-body
    if (source !== response) source.destroy();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        source.resume();
      },
      cancel() {
        finish();
        response.destroy();
        if (source !== response) source.destroy();
      },
    },
    BUFFERED,
  );
  let received = 0;
  source.on('data', (chunk: Buffer) => {
    if (!open) return;
    received += chunk.length;
    if (received > maxBytes) return fail(tooLargeError(maxBytes));
    controller.enqueue(chunk);
    if (controller.desiredSize! <= 0) source.pause();
  });
  source.on('end', () => {
    if (finish()) controller.close();
  });
  source.on('error', (error) => fail(terminated(error)));
  source.on('close', () => {
    if (open) fail(terminated(new Error('other side closed')));
  });
  return { stream, fail };
}

function send(
  url: URL,
  method: string,
  message: Outgoing,
  signal: AbortSignal | null,
  agents: Agents,
  maxBytes: number,
  attempt = 0,
) {
  const secure = url.protocol === 'https:';
  if (message.body !== null) message.headers['content-length'] = String(Buffer.byteLength(message.body));
  else if (method === 'POST' || method === 'PUT') message.headers['content-length'] = '0';
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname[0] === '[' ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: url.pathname + url.search,
      method,
      headers: message.headers,
      agent: secure ? agents.https : agents.http,
    });
    let responded = false;
    let failBody: ((reason: unknown) => void) | null = null;
    const onAbort = () => {
      if (failBody) return failBody(signal!.reason);
      if (!responded) reject(signal!.reason);
      responded = true;
      release();
      request.destroy();
    };
    const release = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort);

    request.on('error', (error: NodeJS.ErrnoException) => {
      if (responded) return; // after the headers, the body stream reports what went wrong
      responded = true;
      release();
      if (request.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '') && attempt < STALE_SOCKET_RETRIES) {
        // The server closed this idle keep-alive socket as it was being reused: nothing was answered on it, so the
        // request goes again (on another socket: this one is destroyed), as Node's documentation advises.
        if (signal?.aborted) return reject(signal.reason);
        return resolve(send(url, method, message, signal, agents, maxBytes, attempt + 1));
      }
      reject(fetchFailed(error));
    });
    request.on('response', (response) => {
      if (responded) return void response.destroy();
      responded = true;
      const status = response.statusCode!;
      try {
        let body: ReadableStream<Uint8Array> | null = null;
        let headers: [string, string][];
        if (method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
          release();
          response.resume(); // nothing to read; lets the socket go back to the pool
          headers = responseHeaders(response, false);
        } else if (Number(response.headers['content-length']) > maxBytes) {
          // Refused on its word, before a byte of the body is read.
          release();
          response.destroy();
          return reject(tooLargeError(maxBytes));
        } else {
          const source = decoded(response);
          headers = responseHeaders(response, source !== null);
          const streamed = bodyStream(response, source ?? response, release, maxBytes);
          body = streamed.stream;
          failBody = streamed.fail;
        }
        const result = new Response(body, { status, statusText: response.statusMessage ?? '', headers });
        Object.defineProperty(result, 'url', { value: url.href });
        resolve(result);
      } catch (error) {
        // A status or header the Response constructor refuses: the exchange cannot be represented.
        release();
        response.destroy();
        reject(fetchFailed(error));
      }
    });
    request.end(message.body ?? undefined);
  });
}

/** Requests held until a condition is met, by the abort signal they are made with (see createRequestHolds). */
export type RequestHolds = { get(signal: AbortSignal): Promise<unknown> | undefined };

/**
 * Holds for the requests of the fetch functions they are given to: requests made with `signal` wait for `until`
 * before anything is sent (no connection is opened, no byte leaves) until it resolves; if it rejects, they reject
 * with its reason. This lets a caller have the provider package build its request while something it depends on
 * (the caller's session check and credit reservation) is still being settled, and send it the moment it is.
 */
export function createRequestHolds() {
  const holds = new WeakMap<AbortSignal, Promise<unknown>>();
  return {
    get: (signal: AbortSignal) => holds.get(signal),
    hold(signal: AbortSignal, until: Promise<unknown>) {
      holds.set(signal, until);
    },
  };
}

/**
 * A WHATWG-compatible `fetch` for the AI SDK provider packages (see the top of this file for what it leaves out).
 * Each call makes its own keep-alive agents, shared by every request of the returned function. With `blockPrivate`,
 * no connection is opened to a private, loopback, link-local or reserved address: IP literals are checked before
 * connecting, host names on the addresses DNS returns at connect time. A refused address rejects with an error whose
 * code is `EADDRBLOCKED`, not with `TypeError('fetch failed')`, so that the AI SDK does not retry it.
 */
export function createProviderFetch(options: ProviderFetchOptions = {}): typeof globalThis.fetch {
  const agents = createAgents(options);
  const blockPrivate = options.blockPrivate ?? false;
  const maxBytes = options.maxResponseBytes ?? Infinity;

  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const signal = init.signal ?? request?.signal ?? null;
    signal?.throwIfAborted();
    const url = input instanceof URL ? input : new URL(typeof input === 'string' ? input : input.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported URL: ${url.protocol}`);
    if (blockPrivate) {
      // Node does not call the agent's lookup for an IP literal, so it is checked here.
      const host = url.hostname[0] === '[' ? url.hostname.slice(1, -1) : url.hostname;
      if (isIP(host) && isBlockedAddress(host)) throw blockedError(url.hostname, host);
    }
    const method = normalizedMethod(init.method ?? request?.method ?? 'GET');
    const message = await outgoing(init, request);
    const hold = signal && options.holds?.get(signal);
    if (hold) await hold;
    signal?.throwIfAborted();
    return send(url, method, message, signal, agents, maxBytes);
  };
}
