import { promises as dns } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { DomainError } from '../../lib/errors.js';
import { type AddressClass, classifyAddress, classifyHostname, normalizeIp } from './address-policy.js';
import { decodeContent } from './content-encoding.js';

export { isBlockedAddress } from './address-policy.js';

export type ResolvedAddress = { address: string; family: number };
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export type SafeFetchOptions = {
  /** Limit on the body as received (before decompression). */
  maxBytes?: number;
  /** Limit on the body after gzip/deflate/br decoding: a small bomb must not fill memory. */
  maxDecodedBytes?: number;
  /** The whole exchange: DNS, every redirect hop and the body. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Loopback and private networks allowed on every hop: the operator's decision (self-hosting on a LAN). */
  allowPrivate?: boolean;
  /**
   * `host:port` pairs (port always written, IPv6 in brackets) whose private addresses are allowed. Unlike
   * `allowPrivate` it is per hop: a redirect elsewhere is checked as strictly as any other URL.
   */
  allowedHosts?: string[];
  accept?: string;
  headers?: Record<string, string>;
  lookup?: Lookup;
  signal?: AbortSignal;
};

export type SafeFetchResult = { url: string; status: number; contentType: string; body: Buffer };
export type SafeFetch = (url: string, options?: SafeFetchOptions) => Promise<SafeFetchResult>;

type Settings = Required<Omit<SafeFetchOptions, 'accept' | 'headers' | 'signal' | 'allowedHosts'>> & {
  allowedHosts: Set<string>;
  headers: Record<string, string>;
};
type Target = { url: URL; hostname: string; hostKey: string; literal: string | null };

const MiB = 1024 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; ParleyFetcher/1.0)';
const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers the caller may not set: they belong to the transport or to our decoding. */
const RESERVED_HEADERS = new Set([
  'host',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
  'te',
  'upgrade',
]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true });

function settingsFrom(options: SafeFetchOptions): Settings {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: options.accept ?? DEFAULT_ACCEPT };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  headers['accept-encoding'] = 'gzip, deflate, br';
  return {
    maxBytes: options.maxBytes ?? 5 * MiB,
    maxDecodedBytes: options.maxDecodedBytes ?? 20 * MiB,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRedirects: options.maxRedirects ?? 5,
    allowPrivate: options.allowPrivate ?? false,
    allowedHosts: new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase())),
    lookup: options.lookup ?? systemLookup,
    headers,
  };
}

/** Only http(s), no credentials; IP literals come back normalized so every notation is checked as the same address. */
export function parseTarget(raw: string): Target {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('URL_NOT_ALLOWED');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DomainError('URL_NOT_ALLOWED');
  if (url.username || url.password || !url.hostname) throw new DomainError('URL_NOT_ALLOWED');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { url, hostname, hostKey: `${url.hostname}:${port}`, literal: normalizeIp(hostname) };
}

function assertAllowed(cls: AddressClass, privateAllowed: boolean) {
  if (cls === 'forbidden' || (cls === 'private' && !privateAllowed)) throw new DomainError('URL_NOT_ALLOWED');
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves once and checks every answer: one private answer is enough for a rebinding attack to pick it later. */
async function resolveChecked(target: Target, settings: Settings, signal: AbortSignal): Promise<ResolvedAddress> {
  const privateAllowed = settings.allowPrivate || settings.allowedHosts.has(target.hostKey);
  if (!target.literal) assertAllowed(classifyHostname(target.hostname), privateAllowed);
  const answers = target.literal
    ? [{ address: target.literal, family: isIP(target.literal) }]
    : await abortable(settings.lookup(target.hostname), signal);
  if (answers.length === 0) throw new DomainError('FETCH_FAILED');
  for (const answer of answers) assertAllowed(classifyAddress(answer.address), privateAllowed);
  const address = normalizeIp(answers[0]!.address)!;
  return { address, family: isIP(address.split('%')[0]!) };
}

/** Hands the socket the address we checked, so a second DNS answer can never be used. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

function send(
  target: Target,
  pinned: ResolvedAddress,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // agent: false — no pooled socket that was connected for some other pin.
    const request = client.request(
      target.url,
      { method: 'GET', headers, signal, agent: false, lookup: pinnedLookup(pinned) },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

async function readLimited(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy();
    throw new DomainError('FETCH_TOO_LARGE');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new DomainError('FETCH_TOO_LARGE');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function redirectTarget(response: IncomingMessage, from: URL): string | null {
  const location = response.headers.location;
  if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return null;
  try {
    return new URL(location, from).href;
  } catch {
    throw new DomainError('FETCH_FAILED');
  }
}

function headersForHop(settings: Settings, first: URL, current: URL): Record<string, string> {
  if (current.origin === first.origin) return settings.headers;
  return Object.fromEntries(Object.entries(settings.headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
}

function contentTypeOf(headers: IncomingHttpHeaders): string {
  return headers['content-type'] ?? '';
}

async function fetchFollowing(url: string, settings: Settings, signal: AbortSignal): Promise<SafeFetchResult> {
  const first = parseTarget(url);
  let target = first;
  for (let hop = 0; ; hop++) {
    const pinned = await resolveChecked(target, settings, signal);
    const response = await send(target, pinned, headersForHop(settings, first.url, target.url), signal);
    const next = redirectTarget(response, target.url);
    if (next === null) {
      const raw = await readLimited(response, settings.maxBytes);
      const body = await decodeContent(raw, response.headers['content-encoding'], settings.maxDecodedBytes);
      return {
        url: target.url.href,
        status: response.statusCode ?? 0,
        contentType: contentTypeOf(response.headers),
        body,
      };
    }
    response.destroy();
    if (hop >= settings.maxRedirects) throw new DomainError('FETCH_FAILED');
    target = parseTarget(next);
  }
}

function toDomainError(error: unknown, timeout: AbortSignal, external: AbortSignal | undefined): unknown {
  if (error instanceof DomainError) return error;
  if (timeout.aborted) return new DomainError('FETCH_TIMEOUT');
  if (external?.aborted) return external.reason; // the caller gave up; not a failure of the page
  return new DomainError('FETCH_FAILED');
}

/**
 * GET a URL a person gave us without letting it reach the server's own network: every hop is parsed, resolved
 * once, checked, and connected to by the checked address. Bodies are size-limited before and after decoding.
 */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const settings = settingsFrom(options);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DomainError('FETCH_TIMEOUT')), settings.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout.signal, options.signal]) : timeout.signal;
  try {
    return await fetchFollowing(url, settings, signal);
  } catch (error) {
    throw toDomainError(error, timeout.signal, options.signal);
  } finally {
    clearTimeout(timer);
  }
}
