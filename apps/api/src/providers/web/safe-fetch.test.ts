import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { type FixtureServer, startFixtureServer } from './fixtures/server.js';
import { type Lookup, isBlockedAddress, safeFetch } from './safe-fetch.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'OK';
}

const resolvesTo =
  (...addresses: string[]): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('isBlockedAddress', () => {
  const blocked = [
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.170',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '2130706433', // 127.0.0.1 in decimal
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '::',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::8.8.8.8',
    '2001:db8::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
    'ff02::1',
    'not-an-ip',
    '',
  ];
  it.each(blocked)('blocks %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
  ];
  it.each(allowed)('allows %s', (ip) => expect(isBlockedAddress(ip)).toBe(false));
});

describe('safeFetch', () => {
  let server: FixtureServer;
  let other: FixtureServer;
  let slowStarted = 0;
  // 64 MiB of zeros, well under the 5 MiB raw limit once compressed: only the decoded-size limit can stop them.
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  const bombs: Record<string, Buffer> = {
    gzip: gzipSync(zeros),
    br: brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }),
  };

  beforeAll(async () => {
    other = await startFixtureServer((_req, res) => res.end('other'));
    server = await startFixtureServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = url.pathname;
      if (route === '/hello') {
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.setHeader('x-host-seen', req.headers.host ?? '');
        return void res.end('hello');
      }
      if (route === '/redirect') {
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', url.searchParams.get('to') ?? '/hello');
        return void res.end();
      }
      if (route.startsWith('/loop/')) {
        res.statusCode = 302;
        res.setHeader('location', `/loop/${Number(route.slice(6)) + 1}`);
        return void res.end();
      }
      if (route === '/big') {
        res.setHeader('content-type', 'application/octet-stream');
        // Chunked, no content-length: the limit must hold without trusting a header.
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 97));
        return void res.end();
      }
      if (route === '/big-declared') {
        res.setHeader('content-length', String(50 * 1024 * 1024));
        return void res.write('a');
      }
      if (route === '/encoded') {
        const text = Buffer.from('decoded text '.repeat(100));
        const kind = url.searchParams.get('kind')!;
        const encode = { gzip: gzipSync, deflate: deflateSync, 'raw-deflate': deflateRawSync, br: brotliCompressSync }[
          kind
        ]!;
        res.setHeader('content-encoding', kind === 'raw-deflate' ? 'deflate' : kind);
        return void res.end(encode(text));
      }
      if (route === '/bomb') {
        const kind = url.searchParams.get('kind') ?? 'gzip';
        res.setHeader('content-encoding', kind);
        return void res.end(bombs[kind]);
      }
      if (route === '/slow-headers') {
        slowStarted++;
        return; // never answers
      }
      if (route === '/slow-body') {
        res.setHeader('content-type', 'text/plain');
        res.write('x');
        const timer = setInterval(() => res.write('x'), 20);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (route === '/missing') {
        res.statusCode = 404;
        return void res.end('not here');
      }
      res.statusCode = 500;
      res.end();
    });
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  const allowLoopback = () => ({ allowedHosts: [server.hostKey] });

  describe('rejects before any connection', () => {
    const targets = (port: number) => [
      `http://2130706433:${port}/hello`,
      `http://0x7f000001:${port}/hello`,
      `http://0177.0.0.1:${port}/hello`,
      `http://0x7f.1:${port}/hello`,
      `http://127.1:${port}/hello`,
      `http://127.0.0.1.:${port}/hello`,
      `http://127.0.0.1:${port}/hello`,
      `http://0.0.0.0:${port}/hello`,
      `http://0:${port}/hello`,
      `http://[::1]:${port}/hello`,
      `http://[::ffff:127.0.0.1]:${port}/hello`,
      `http://[::ffff:7f00:1]:${port}/hello`,
      `http://localhost:${port}/hello`,
      `http://LOCALHOST.:${port}/hello`,
      `http://app.localhost:${port}/hello`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata.google.internal./computeMetadata/v1/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.0.1/',
      'http://0300.0250.0.1/',
      'http://100.64.1.1/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[64:ff9b::7f00:1]/',
      'file:///etc/passwd',
      'ftp://example.com/file',
      'javascript:alert(1)',
      'data:text/html,<h1>hi</h1>',
      'gopher://example.com/',
      `http://user:secret@127.0.0.1:${port}/hello`,
      'https://user@example.com/',
      'not a url',
    ];

    it('for every blocked notation, scheme and credential, without DNS', async () => {
      const lookup = vi.fn(resolvesTo('93.184.216.34'));
      for (const url of targets(server.port)) {
        expect([url, await codeOf(safeFetch(url, { lookup, timeoutMs: 2000 }))]).toEqual([url, 'URL_NOT_ALLOWED']);
      }
      expect(lookup).not.toHaveBeenCalled();
      expect(server.connections()).toBe(0);
    });

    it('for a public-looking name whose DNS answer is loopback', async () => {
      const before = server.connections();
      const lookup = vi.fn(resolvesTo('127.0.0.1'));
      expect(await codeOf(safeFetch(`http://news.example.com:${server.port}/hello`, { lookup }))).toBe(
        'URL_NOT_ALLOWED',
      );
      expect(lookup).toHaveBeenCalledWith('news.example.com');
      expect(server.connections()).toBe(before);
    });

    it('when any one DNS answer is private, or a mapped/metadata address', async () => {
      const before = server.connections();
      for (const answers of [
        ['93.184.216.34', '127.0.0.1'],
        ['::ffff:127.0.0.1'],
        ['169.254.169.254'],
        ['::1'],
        ['fe80::1'],
      ]) {
        const code = await codeOf(
          safeFetch(`http://mixed.example.com:${server.port}/hello`, { lookup: resolvesTo(...answers) }),
        );
        expect([answers, code]).toEqual([answers, 'URL_NOT_ALLOWED']);
      }
      expect(server.connections()).toBe(before);
    });

    it('metadata stays forbidden even when private networks are allowed', async () => {
      const lookup = vi.fn(resolvesTo('127.0.0.1'));
      expect(await codeOf(safeFetch('http://169.254.169.254/', { allowPrivate: true, lookup }))).toBe(
        'URL_NOT_ALLOWED',
      );
      expect(await codeOf(safeFetch('http://metadata.google.internal/', { allowPrivate: true, lookup }))).toBe(
        'URL_NOT_ALLOWED',
      );
      expect(await codeOf(safeFetch(`http://0.0.0.0:${server.port}/hello`, { allowPrivate: true, lookup }))).toBe(
        'URL_NOT_ALLOWED',
      );
      expect(lookup).not.toHaveBeenCalled();
    });
  });

  it('connects to the checked address, keeping the Host header of the name', async () => {
    // `.test` never resolves in real DNS: a response proves the socket used our one checked answer.
    const lookup = vi.fn(resolvesTo('127.0.0.1'));
    const hostKey = `pinned.test:${server.port}`;
    const result = await safeFetch(`http://${hostKey}/hello`, { lookup, allowedHosts: [hostKey] });
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe('hello');
    expect(result.contentType).toBe('text/plain; charset=utf-8');
    expect(server.requests.at(-1)!.headers.host).toBe(hostKey);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('speaks TLS to the checked address with the name as SNI', async () => {
    // No certificate needed: the server only records the ClientHello's server name, then ends the handshake.
    const serverNames: (string | undefined)[] = [];
    const tlsServer = tls.createServer({
      SNICallback: (name, callback) => {
        serverNames.push(name);
        callback(new Error('test server has no certificate'));
      },
    });
    tlsServer.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const { port } = tlsServer.address() as AddressInfo;
    try {
      const lookup = vi.fn(resolvesTo('127.0.0.1'));
      const hostKey = `secure.test:${port}`;
      expect(await codeOf(safeFetch(`https://${hostKey}/`, { lookup, allowedHosts: [hostKey] }))).toBe('FETCH_FAILED');
      expect(serverNames).toEqual(['secure.test']);
      expect(lookup).toHaveBeenCalledTimes(1);
    } finally {
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it('sends our headers, and the caller cannot override Host or Accept-Encoding', async () => {
    await safeFetch(`${server.origin}/hello`, {
      ...allowLoopback(),
      accept: 'text/html',
      headers: { 'Accept-Language': 'fr', Host: 'evil.example', 'Accept-Encoding': 'zstd' },
    });
    const headers = server.requests.at(-1)!.headers;
    expect(headers).toMatchObject({
      host: server.hostKey,
      accept: 'text/html',
      'accept-language': 'fr',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(headers['user-agent']).toContain('Parley');
  });

  it('returns non-2xx answers with their status', async () => {
    const result = await safeFetch(`${server.origin}/missing`, allowLoopback());
    expect(result.status).toBe(404);
    expect(result.body.toString()).toBe('not here');
  });

  describe('redirects', () => {
    const via = (to: string, status = 302) => `${server.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

    it('follows allowed hops and reports the final URL', async () => {
      const result = await safeFetch(via('/hello', 301), allowLoopback());
      expect(result.url).toBe(`${server.origin}/hello`);
      expect(result.body.toString()).toBe('hello');
    });

    it('checks every hop: the first host being allowed does not allow the next', async () => {
      const lookup = vi.fn(resolvesTo('192.168.1.20'));
      const hops = [
        'http://169.254.169.254/latest/meta-data/iam/',
        'http://10.0.0.1/',
        'http://[::1]/',
        'http://2130706433/',
        `http://127.0.0.1:${other.port}/`,
        'http://intranet.example.com/',
        'file:///etc/passwd',
      ];
      for (const to of hops) {
        for (const status of [302, 307])
          expect([to, await codeOf(safeFetch(via(to, status), { ...allowLoopback(), lookup }))]).toEqual([
            to,
            'URL_NOT_ALLOWED',
          ]);
      }
      expect(other.connections()).toBe(0);
      expect(lookup).toHaveBeenCalledWith('intranet.example.com');
    });

    it('never follows into metadata, even with private networks allowed', async () => {
      expect(await codeOf(safeFetch(via('http://169.254.169.254/'), { allowPrivate: true }))).toBe('URL_NOT_ALLOWED');
    });

    it('drops credentials when a redirect leaves the origin', async () => {
      const hostKey = `cookies.test:${server.port}`;
      await safeFetch(via(`http://${hostKey}/hello`), {
        allowedHosts: [server.hostKey, hostKey],
        lookup: resolvesTo('127.0.0.1'),
        headers: { cookie: 'a=1', 'accept-language': 'es' },
      });
      const [first, second] = server.requests.slice(-2);
      expect(first!.headers.cookie).toBe('a=1');
      expect(second!.headers.cookie).toBeUndefined();
      expect(second!.headers['accept-language']).toBe('es');
    });

    it('gives up after maxRedirects hops', async () => {
      const before = server.requests.length;
      expect(await codeOf(safeFetch(`${server.origin}/loop/0`, { ...allowLoopback(), maxRedirects: 3 }))).toBe(
        'FETCH_FAILED',
      );
      expect(server.requests.length - before).toBe(4);
    });
  });

  describe('limits', () => {
    it('rejects a body larger than maxBytes, streamed without content-length', async () => {
      expect(await codeOf(safeFetch(`${server.origin}/big`, { ...allowLoopback(), maxBytes: 1024 * 1024 }))).toBe(
        'FETCH_TOO_LARGE',
      );
      expect((await safeFetch(`${server.origin}/big`, allowLoopback())).body.length).toBe(40 * 64 * 1024);
    });

    it('rejects a declared content-length above the limit without reading', async () => {
      expect(await codeOf(safeFetch(`${server.origin}/big-declared`, { ...allowLoopback(), timeoutMs: 2000 }))).toBe(
        'FETCH_TOO_LARGE',
      );
    });

    it.each(['gzip', 'deflate', 'raw-deflate', 'br'])('decodes %s', async (kind) => {
      const result = await safeFetch(`${server.origin}/encoded?kind=${kind}`, allowLoopback());
      expect(result.body.toString()).toBe('decoded text '.repeat(100));
    });

    it.each(['gzip', 'br'])('rejects a %s bomb that inflates past maxDecodedBytes', async (kind) => {
      expect(bombs[kind]!.length).toBeLessThan(1024 * 1024);
      const result = safeFetch(`${server.origin}/bomb?kind=${kind}`, allowLoopback());
      expect(await codeOf(result)).toBe('FETCH_TOO_LARGE');
    });

    it('times out when the server never answers', async () => {
      const started = Date.now();
      expect(await codeOf(safeFetch(`${server.origin}/slow-headers`, { ...allowLoopback(), timeoutMs: 300 }))).toBe(
        'FETCH_TIMEOUT',
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(slowStarted).toBe(1);
    });

    it('times out a body that trickles forever', async () => {
      expect(await codeOf(safeFetch(`${server.origin}/slow-body`, { ...allowLoopback(), timeoutMs: 300 }))).toBe(
        'FETCH_TIMEOUT',
      );
    });

    it('times out a DNS lookup that never answers', async () => {
      const lookup: Lookup = () => new Promise(() => {});
      expect(await codeOf(safeFetch('http://slow-dns.example.com/', { lookup, timeoutMs: 200 }))).toBe('FETCH_TIMEOUT');
    });

    it('passes on the caller abort rather than calling it a page failure', async () => {
      const controller = new AbortController();
      const pending = safeFetch(`${server.origin}/slow-headers`, { ...allowLoopback(), signal: controller.signal });
      setTimeout(() => controller.abort(new Error('client left')), 50);
      await expect(pending).rejects.toThrow('client left');
    });

    it('calls a refused connection a fetch failure', async () => {
      const closed = await startFixtureServer(() => {});
      await closed.close();
      expect(await codeOf(safeFetch(`${closed.origin}/`, { allowedHosts: [closed.hostKey] }))).toBe('FETCH_FAILED');
    });
  });
});
