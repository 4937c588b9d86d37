import { isIP } from 'node:net';

/**
 * Where an address or host name may lead a server-side fetch.
 * - `public`: anywhere on the internet.
 * - `private`: this machine or its network (loopback, RFC 1918, CGNAT, ULA). Allowed only when the operator says so.
 * - `forbidden`: never, whatever the configuration: cloud metadata (link-local), unspecified, multicast, reserved and
 *   documentation ranges, and IPv6 forms that tunnel to an address we cannot see.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

type Range = { base: bigint; bits: number; size: 32 | 128; class: Exclude<AddressClass, 'public'> };

const IPV4_RANGES: [string, number, Range['class']][] = [
  ['0.0.0.0', 8, 'forbidden'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'private'],
  ['169.254.0.0', 16, 'forbidden'], // link-local, home of 169.254.169.254 cloud metadata
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'forbidden'], // IETF protocol assignments
  ['192.0.2.0', 24, 'forbidden'], // TEST-NET-1
  ['192.88.99.0', 24, 'forbidden'], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'private'], // benchmarking, sometimes used inside data centres
  ['198.51.100.0', 24, 'forbidden'], // TEST-NET-2
  ['203.0.113.0', 24, 'forbidden'], // TEST-NET-3
  ['224.0.0.0', 4, 'forbidden'], // multicast
  ['240.0.0.0', 4, 'forbidden'], // reserved, includes 255.255.255.255
];

const IPV6_RANGES: [string, number, Range['class']][] = [
  ['::1', 128, 'private'],
  ['::', 96, 'forbidden'], // unspecified and deprecated IPv4-compatible ::a.b.c.d
  ['64:ff9b::', 96, 'forbidden'], // NAT64 well-known prefix: would reach any IPv4 address, checked or not
  ['64:ff9b:1::', 48, 'forbidden'], // local-use NAT64
  ['100::', 64, 'forbidden'], // discard-only
  ['2001::', 32, 'forbidden'], // Teredo: the IPv4 endpoint is obfuscated in the address
  ['2001:db8::', 32, 'forbidden'], // documentation
  ['3fff::', 20, 'forbidden'], // documentation (RFC 9637)
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'forbidden'], // link-local
  ['fec0::', 10, 'private'], // deprecated site-local
  ['ff00::', 8, 'forbidden'], // multicast
];

const RANGES: Range[] = [
  ...IPV4_RANGES.map(([ip, bits, cls]): Range => ({ base: BigInt(ipv4ToInt(ip)!), bits, size: 32, class: cls })),
  ...IPV6_RANGES.map(([ip, bits, cls]): Range => ({ base: ipv6ToBigInt(ip)!, bits, size: 128, class: cls })),
];

/** Cloud metadata names that must never be fetched, even where the operator allows private addresses. */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function ipv6ToBigInt(raw: string): bigint | null {
  let ip = raw.split('%')[0]!; // a zone id does not change which address it is
  if (!isIP(ip)) return null;
  const lastColon = ip.lastIndexOf(':');
  const tail = ip.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToInt(tail);
    if (v4 === null) return null;
    ip = `${ip.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups =
    rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function inRange(value: bigint, size: 32 | 128, range: Range): boolean {
  if (range.size !== size) return false;
  const shift = BigInt(size - range.bits);
  return value >> shift === range.base >> shift;
}

function classifyIpv4(value: number): AddressClass {
  return RANGES.find((r) => inRange(BigInt(value), 32, r))?.class ?? 'public';
}

function classifyIpv6(value: bigint): AddressClass {
  const low32 = Number(value & 0xffffffffn);
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d): the kernel connects to the IPv4 address.
  if (value >> 32n === 0xffffn || value >> 32n === 0xffff0000n) return classifyIpv4(low32);
  // 6to4 (2002:AABB:CCDD::/48) carries the IPv4 address it tunnels to.
  if (value >> 112n === 0x2002n) {
    const embedded = classifyIpv4(Number((value >> 80n) & 0xffffffffn));
    if (embedded !== 'public') return embedded;
  }
  return RANGES.find((r) => inRange(value, 128, r))?.class ?? 'public';
}

/**
 * Canonical IP text for any notation a URL host may use (decimal, hex, octal, short IPv4; bracketed IPv6), or null
 * when it is not an IP address. The WHATWG URL parser does the IPv4 normalization exactly as browsers do.
 */
export function normalizeIp(raw: string): string | null {
  const unbracketed = raw.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed.split('%')[0]!)) return unbracketed;
  if (!/^[0-9a-fA-FxX.]+$/.test(raw)) return null;
  try {
    const hostname = new URL(`http://${raw}/`).hostname;
    return isIP(hostname) ? hostname : null;
  } catch {
    return null;
  }
}

/** Classifies an IP address in any notation; anything that is not an IP address is forbidden (fail closed). */
export function classifyAddress(raw: string): AddressClass {
  const ip = normalizeIp(raw);
  if (ip === null) return 'forbidden';
  const v4 = ipv4ToInt(ip);
  if (v4 !== null) return classifyIpv4(v4);
  const v6 = ipv6ToBigInt(ip);
  return v6 === null ? 'forbidden' : classifyIpv6(v6);
}

/** True when a server-side fetch must not connect to this address without the operator allowing private networks. */
export function isBlockedAddress(ip: string): boolean {
  return classifyAddress(ip) !== 'public';
}

/** Names that point inward before any DNS answer is seen; DNS answers are checked separately. */
export function classifyHostname(hostname: string): AddressClass {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTS.has(name)) return 'forbidden';
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.internal') || name.endsWith('.local'))
    return 'private';
  return 'public';
}
