import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { createProviderFetch, createRequestHolds } from './provider-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;
type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer; socket: Socket };

const servers: { close: () => Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A loopback server that records what it receives and how many connections were opened to it. */
async function startServer(handler: Handler) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body, socket: req.socket });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handle = {
    port,
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** Every chunk of a stream (the DOM typings of ReadableStream have no async iterator). */
async function chunksOf<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const chunks: T[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe('createProviderFetch', () => {
  it('hands over the first chunk of a streamed response while the server still holds the rest', async () => {
    const rest = deferred();
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      void rest.promise.then(() => res.end('data: second\n\n'));
    });
    const response = await createProviderFetch()(`${server.url}/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.url).toBe(`${server.url}/stream`);
    const reader = response.body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: first\n\n');
    rest.resolve();
    expect(text((await reader.read()).value)).toBe('data: second\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('sends a JSON POST with its body and headers intact', async () => {
    const server = await startServer((_req, res) => res.end('{"ok":true}'));
    const headers: Record<string, string | undefined> = {
      'Content-Type': 'application/json',
      authorization: 'Bearer key',
      'x-skip': undefined,
    };
    const payload = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'héllo ✓' }] });
    const response = await createProviderFetch()(`${server.url}/v1/chat/completions?x=1`, {
      method: 'post',
      headers: headers as Record<string, string>,
      body: payload,
    });
    expect(await response.json()).toEqual({ ok: true });
    const [request] = server.received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions?x=1');
    expect(request!.body.toString('utf8')).toBe(payload);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe('Bearer key');
    expect(request!.headers['content-length']).toBe(String(Buffer.byteLength(payload)));
    expect(request!.headers['accept-encoding']).toBeUndefined();
    expect('x-skip' in request!.headers).toBe(false);
  });

  it('takes headers from a Headers object or pairs, and a Request with init overriding it', async () => {
    const server = await startServer((_req, res) => res.end());
    const fetch = createProviderFetch();
    await fetch(server.url, { headers: new Headers({ 'x-a': '1' }) });
    await fetch(server.url, {
      headers: [
        ['x-b', '2'],
        ['x-b', '3'],
      ],
    });
    const request = new Request(`${server.url}/from-request`, {
      method: 'PUT',
      headers: { 'x-c': 'request' },
      body: new Uint8Array([1, 2, 3]),
    });
    await (await fetch(request, { headers: { 'x-c': 'init' } })).arrayBuffer();
    expect(server.received.map((r) => [r.headers['x-a'], r.headers['x-b'], r.headers['x-c']])).toEqual([
      ['1', undefined, undefined],
      [undefined, '2, 3', undefined],
      [undefined, undefined, 'init'],
    ]);
    expect(server.received[2]!.method).toBe('PUT');
    expect(server.received[2]!.url).toBe('/from-request');
    expect([...server.received[2]!.body]).toEqual([1, 2, 3]);
  });

  it('sends FormData as multipart with its boundary', async () => {
    const server = await startServer((_req, res) => res.end());
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array([0x52, 0x49, 0x46, 0x46])], { type: 'audio/wav' }), 'a.wav');
    await createProviderFetch()(server.url, { method: 'POST', body: form });
    const [request] = server.received;
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(request!.headers['content-type'] ?? '')?.[1];
    expect(boundary).toBeTruthy();
    const body = request!.body.toString('latin1');
    expect(body.startsWith(`--${boundary}\r\n`)).toBe(true);
    expect(body).toContain('name="model"\r\n\r\nwhisper-1\r\n');
    expect(body).toContain('filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n');
    expect(request!.headers['content-length']).toBe(String(request!.body.length));
  });

  it('decodes a gzip response and drops content-encoding and content-length', async () => {
    const json = JSON.stringify({ answer: 'x'.repeat(2000) });
    const server = await startServer((_req, res) => {
      const gzipped = gzipSync(json);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': gzipped.length,
      });
      res.end(gzipped);
    });
    const response = await createProviderFetch()(server.url);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(json);
  });

  it('pauses the socket while the reader is behind, and delivers every byte', async () => {
    const total = 32 * 1024 * 1024;
    let written = 0;
    const server = await startServer((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const write = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    });
    const response = await createProviderFetch()(server.url);
    await new Promise((r) => setTimeout(r, 300));
    expect(written).toBeLessThan(total); // nothing read yet: the server is held back, not buffered in memory here
    const chunks = await chunksOf(response.body!);
    expect(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)).toBe(total);
  });

  it('rejects with the signal’s reason when it is aborted before the call, opening no connection', async () => {
    const server = await startServer((_req, res) => res.end());
    const reason = new Error('gave up early');
    const error = await rejectionOf(createProviderFetch()(server.url, { signal: AbortSignal.abort(reason) }));
    expect(error).toBe(reason);
    expect(server.connections()).toBe(0);
  });

  it('rejects with the signal’s reason when aborted while waiting for headers, and closes the request', async () => {
    const arrived = deferred();
    const closed = deferred();
    const server = await startServer((req) => {
      req.socket.on('close', closed.resolve);
      arrived.resolve(); // and never answers
    });
    const controller = new AbortController();
    const pending = createProviderFetch()(server.url, { signal: controller.signal });
    await arrived.promise;
    const reason = new Error('stop waiting');
    controller.abort(reason);
    expect(await rejectionOf(pending)).toBe(reason);
    await closed.promise;
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('errors the body with the signal’s reason when aborted mid-body, and closes the socket', async () => {
    const closed = deferred();
    const server = await startServer((req, res) => {
      req.socket.on('close', closed.resolve);
      res.write('data: one\n\n'); // and holds the rest
    });
    const controller = new AbortController();
    const response = await createProviderFetch()(server.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    const reason = new Error('person pressed stop');
    controller.abort(reason);
    expect(await rejectionOf(reader.read())).toBe(reason);
    await closed.promise;
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('removes its abort listener once a body has been read, so a long-lived signal does not collect them', async () => {
    const server = await startServer((req, res) => res.end(req.url === '/empty' ? undefined : 'body'));
    const fetch = createProviderFetch();
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) await (await fetch(server.url, { signal: controller.signal })).text();
    await fetch(server.url, { method: 'HEAD', signal: controller.signal });
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('rejects a refused connection with TypeError("fetch failed") and the cause’s code', async () => {
    const server = await startServer(() => {});
    const port = server.port;
    await server.close();
    const error = await rejectionOf(createProviderFetch()(`http://127.0.0.1:${port}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('errors the body when the server drops the connection mid-body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const response = await createProviderFetch()(server.url);
    const error = await rejectionOf(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it('reuses one keep-alive socket for sequential requests', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const fetch = createProviderFetch();
    expect(await (await fetch(server.url)).text()).toBe('ok');
    expect(await (await fetch(server.url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.socket).toBe(server.received[0]!.socket);
    expect(server.connections()).toBe(1);
  });

  it('sends a request again, on a new socket, when the server closed the idle socket it went out on', async () => {
    // Each connection serves one request; a second one on it is dropped unanswered, as a server whose idle timeout
    // fires just as a reused socket is written to.
    const served = new WeakMap<object, number>();
    const server = await startServer((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1) return void req.socket.destroy();
      res.end('ok');
    });
    const fetch = createProviderFetch();
    expect(await (await fetch(server.url)).text()).toBe('ok');
    const second = await fetch(server.url, { method: 'POST', body: '{"n":2}' });
    expect(await second.text()).toBe('ok');
    expect(server.connections()).toBe(2);
    expect(text(server.received.at(-1)!.body)).toBe('{"n":2}');
  });

  it('does not send again when a new connection is reset', async () => {
    const server = await startServer((req) => void req.socket.destroy());
    const error = await rejectionOf(createProviderFetch()(server.url, { method: 'POST', body: '{}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(server.received).toHaveLength(1);
  });

  it('does not share sockets between two fetch functions', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    await (await createProviderFetch()(server.url)).text();
    await (await createProviderFetch()(server.url)).text();
    expect(server.connections()).toBe(2);
  });

  describe('blockPrivate', () => {
    const resolvesTo =
      (...addresses: string[]) =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

    it('refuses IP literals of this machine in every notation, before connecting', async () => {
      const server = await startServer((_req, res) => res.end());
      const fetch = createProviderFetch({ blockPrivate: true });
      for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '2130706433', '169.254.169.254']) {
        const error = await rejectionOf(fetch(`http://${host}:${server.port}/`));
        expect((error as NodeJS.ErrnoException).code, host).toBe('EADDRBLOCKED');
      }
      expect(server.connections()).toBe(0);
    });

    it('refuses a host name that resolves to a private address, checked on every answer', async () => {
      const server = await startServer((_req, res) => res.end());
      for (const answers of [['10.0.0.1'], ['127.0.0.1'], ['93.184.215.14', '127.0.0.1'], ['::1']]) {
        const fetch = createProviderFetch({ blockPrivate: true, lookup: resolvesTo(...answers) });
        const error = await rejectionOf(fetch(`http://api.example.test:${server.port}/`));
        expect(error).not.toBeInstanceOf(TypeError); // not "fetch failed": the AI SDK must not retry it
        expect((error as NodeJS.ErrnoException).code, answers.join()).toBe('EADDRBLOCKED');
      }
      expect(server.connections()).toBe(0);
    });

    it('connects through the injected lookup when private addresses are allowed', async () => {
      const server = await startServer((_req, res) => res.end('reached'));
      const fetch = createProviderFetch({ lookup: resolvesTo('127.0.0.1') });
      const response = await fetch(`http://api.example.test:${server.port}/`);
      expect(await response.text()).toBe('reached');
      expect(server.received[0]!.headers.host).toBe(`api.example.test:${server.port}`);
    });
  });

  describe('maxResponseBytes', () => {
    const limit = 1024 * 1024;
    /** A server that streams `total` bytes (with or without saying so), counting what it managed to write. */
    async function streaming(total: number, { declared }: { declared: boolean }) {
      const sent = { bytes: 0 };
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': total } : {}) });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const write = () => {
          while (sent.bytes < total && !res.destroyed) {
            sent.bytes += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      });
      return { server, sent };
    }

    it('refuses a declared length over the limit before reading the body', async () => {
      const { server, sent } = await streaming(400 * 1024 * 1024, { declared: true });
      const error = await rejectionOf(createProviderFetch({ maxResponseBytes: limit })(server.url));
      expect(error).not.toBeInstanceOf(TypeError); // not "fetch failed": the AI SDK must not retry it
      expect((error as NodeJS.ErrnoException).code).toBe('ERESPONSETOOLARGE');
      await new Promise((r) => setTimeout(r, 100));
      expect(sent.bytes).toBeLessThan(32 * 1024 * 1024);
    });

    it('cuts off an undeclared body once it passes the limit, and closes the connection', async () => {
      const { server, sent } = await streaming(400 * 1024 * 1024, { declared: false });
      const response = await createProviderFetch({ maxResponseBytes: limit })(server.url);
      const error = await rejectionOf(response.arrayBuffer());
      expect((error as NodeJS.ErrnoException).code).toBe('ERESPONSETOOLARGE');
      await new Promise((r) => setTimeout(r, 100));
      expect(sent.bytes).toBeLessThan(32 * 1024 * 1024);
    });

    it('counts the decoded bytes of a compressed body', async () => {
      const bomb = gzipSync(Buffer.alloc(8 * limit));
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
      });
      expect(bomb.length).toBeLessThan(limit);
      const response = await createProviderFetch({ maxResponseBytes: limit })(server.url);
      expect(((await rejectionOf(response.arrayBuffer())) as NodeJS.ErrnoException).code).toBe('ERESPONSETOOLARGE');
    });

    it('hands over a body at the limit whole', async () => {
      const { server } = await streaming(limit, { declared: false });
      const response = await createProviderFetch({ maxResponseBytes: limit })(server.url);
      expect((await response.arrayBuffer()).byteLength).toBe(limit);
    });
  });

  it('returns a redirect as is instead of following it', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/elsewhere') return res.end('followed');
      res.writeHead(302, { location: '/elsewhere' });
      res.end('moved');
    });
    const response = await createProviderFetch()(`${server.url}/start`, { headers: { authorization: 'Bearer key' } });
    expect(response.status).toBe(302);
    expect(response.redirected).toBe(false);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(await response.text()).toBe('moved');
    expect(server.received.map((r) => r.url)).toEqual(['/start']);
  });

  it('gives a null body for 204 and HEAD', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 204, { 'content-length': req.method === 'HEAD' ? 4 : 0 });
      res.end();
    });
    const fetch = createProviderFetch();
    const empty = await fetch(server.url, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('content-length')).toBe('4');
    expect(server.connections()).toBe(1);
  });
});

describe('createProviderFetch with an AI SDK provider package', () => {
  const prompt = (text: string) => [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }];

  it('streams a chat answer through createOpenAICompatible', async () => {
    const fake = await startFakeOpenAI({ host: '127.0.0.1' });
    servers.push(fake);
    const provider = createOpenAICompatible({ name: 'x', baseURL: fake.baseUrl, fetch: createProviderFetch() });
    const { stream } = await provider.chatModel('fake-model').doStream({ prompt: prompt('hi #tokens5') });
    const parts: LanguageModelV3StreamPart[] = await chunksOf(stream);
    const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
    expect(text).toBe('You asked: hi\n\nw0 w1 w2 w3 w4');
    expect(parts.filter((p) => p.type === 'text-delta').length).toBeGreaterThan(5);
    expect(parts.at(-1)?.type).toBe('finish');
    expect(fake.requests[0]!.body).toMatchObject({ model: 'fake-model', stream: true });
  });

  it('surfaces a 500 as a retryable APICallError', async () => {
    const fake = await startFakeOpenAI({ host: '127.0.0.1' });
    servers.push(fake);
    const provider = createOpenAICompatible({ name: 'x', baseURL: fake.baseUrl, fetch: createProviderFetch() });
    const error = await rejectionOf(provider.chatModel('fake-model').doStream({ prompt: prompt('hi #fail500') }));
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(500);
    expect((error as APICallError).isRetryable).toBe(true);
  });

  it('surfaces a refused connection as retryable and a blocked address as not', async () => {
    const fake = await startFakeOpenAI({ host: '127.0.0.1' });
    const baseURL = fake.baseUrl;
    await fake.close();
    const refused = createOpenAICompatible({ name: 'x', baseURL, fetch: createProviderFetch() });
    const refusal = await rejectionOf(refused.chatModel('fake-model').doStream({ prompt: prompt('hi') }));
    expect(APICallError.isInstance(refusal) && refusal.isRetryable).toBe(true);
    const blocked = createOpenAICompatible({ name: 'x', baseURL, fetch: createProviderFetch({ blockPrivate: true }) });
    const refusalOfBlocked = await rejectionOf(blocked.chatModel('fake-model').doStream({ prompt: prompt('hi') }));
    expect((refusalOfBlocked as NodeJS.ErrnoException).code).toBe('EADDRBLOCKED');
    expect(APICallError.isInstance(refusalOfBlocked) && refusalOfBlocked.isRetryable).toBe(false);
  });
});

describe('requests held by their signal', () => {
  const holds = createRequestHolds();
  const holdRequests = holds.hold;
  it('open no connection until the hold resolves, then go out as usual', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const fetch = createProviderFetch({ holds });
    const controller = new AbortController();
    const gate = deferred();
    holdRequests(controller.signal, gate.promise);
    const pending = fetch(`${server.url}/v1/held`, { method: 'POST', body: '{}', signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections()).toBe(0);
    gate.resolve();
    const response = await pending;
    expect(await response.text()).toBe('ok');
    expect(server.received.map((r) => r.url)).toEqual(['/v1/held']);
    // Another signal is not held.
    expect(await (await fetch(`${server.url}/v1/free`)).text()).toBe('ok');
  });

  it('reject with the hold’s reason, and nothing is sent, when it rejects', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const fetch = createProviderFetch({ holds });
    const controller = new AbortController();
    const refused = new Error('not admitted');
    holdRequests(controller.signal, Promise.reject(refused));
    expect(
      await rejectionOf(fetch(`${server.url}/v1/held`, { method: 'POST', body: '{}', signal: controller.signal })),
    ).toBe(refused);
    // Aborted while held: the abort wins, nothing is sent either.
    const aborted = new AbortController();
    const gate = deferred();
    holdRequests(aborted.signal, gate.promise);
    const pending = fetch(`${server.url}/v1/held`, { signal: aborted.signal });
    aborted.abort(new Error('client went away'));
    gate.resolve();
    expect(((await rejectionOf(pending)) as Error).message).toBe('client went away');
    expect(server.connections()).toBe(0);
  });
});
