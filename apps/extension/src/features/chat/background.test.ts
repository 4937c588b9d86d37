import { createApiClient } from '@parley/api-client';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_PORT, type ChatPortEvent } from '../../platform/messaging/protocol';
import type { SenderContext } from '../../platform/messaging/senders';
import { createChatPortHandler, createTranscribeHandler } from './background';

const ctx: SenderContext = {
  extensionId: 'ourid',
  extensionOrigin: 'chrome-extension://ourid',
  webOrigin: 'http://localhost:3000',
};

type Listener<T> = (value: T) => void;

function fakePort(sender: Record<string, unknown>, name = CHAT_PORT) {
  const messageListeners: Listener<unknown>[] = [];
  const disconnectListeners: Listener<unknown>[] = [];
  const posted: ChatPortEvent[] = [];
  const port = {
    name,
    sender,
    postMessage: vi.fn((event: ChatPortEvent) => void posted.push(event)),
    disconnect: vi.fn(),
    onMessage: { addListener: (l: Listener<unknown>) => void messageListeners.push(l) },
    onDisconnect: { addListener: (l: Listener<unknown>) => void disconnectListeners.push(l) },
  };
  return {
    port: port as never,
    raw: port,
    posted,
    send: (message: unknown) => messageListeners.forEach((l) => l(message)),
    disconnectFromPage: () => disconnectListeners.forEach((l) => l(port)),
  };
}

const encoder = new TextEncoder();

/** An SSE body whose chunks the test releases one by one; it errors like fetch does when the signal aborts. */
function sseResponse(signal: AbortSignal | null | undefined, events: string[], hold = false) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const e of events) c.enqueue(encoder.encode(`data: ${e}\n\n`));
      if (!hold) c.close();
    },
  });
  signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** The handler over the background's real API client (as app/background.ts wires it), with a fake fetch. */
function setup(fetchImpl: typeof fetch, token: string | null = 'tok123456') {
  let current = token;
  const deps = {
    fetch: vi.fn(fetchImpl),
    drop: vi.fn(() => {
      current = null;
    }),
    onLoggedOut: vi.fn(),
    onUnauthorized: vi.fn(),
  };
  const client = createApiClient({
    baseUrl: 'http://api.test',
    token: { get: () => current, drop: deps.drop },
    language: () => 'fr',
    onLoggedOut: deps.onLoggedOut,
    onUnauthorized: deps.onUnauthorized,
    fetch: deps.fetch,
  });
  return {
    deps,
    handle: createChatPortHandler({
      ready: Promise.resolve(),
      hasToken: () => current !== null,
      client,
      senderContext: () => ctx,
    }),
  };
}

const fromPanel = { id: 'ourid', url: 'chrome-extension://ourid/sidepanel.html' };
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('CHAT_PORT in the background', () => {
  it('refuses content scripts, other extensions and pages, and never fetches for them', async () => {
    const { deps, handle } = setup(async () => sseResponse(null, []));
    for (const sender of [
      { id: 'ourid', url: 'https://mail.example.com/', tab: { id: 3 }, frameId: 0 },
      { id: 'ourid', url: 'http://localhost:3000/chat', tab: { id: 3 }, frameId: 0 },
      { id: 'otherid', url: 'chrome-extension://otherid/page.html' },
      { url: 'https://evil.example/' },
    ]) {
      const p = fakePort(sender);
      handle(p.port);
      expect(p.raw.disconnect).toHaveBeenCalled();
      p.send({ type: 'start', id: 'a', request: { model: 'x', text: 'hi' } });
    }
    await tick();
    expect(deps.fetch).not.toHaveBeenCalled();
  });

  it('ignores ports with another name', () => {
    const { handle } = setup(async () => sseResponse(null, []));
    const p = fakePort({ id: 'otherid' }, 'parley-panel');
    handle(p.port);
    expect(p.raw.disconnect).not.toHaveBeenCalled();
  });

  it('POSTs the multipart request with the token and forwards every chunk, then done', async () => {
    const { deps, handle } = setup(async () =>
      sseResponse(null, [
        JSON.stringify({ type: 'start', messageMetadata: { chatId: 'c1' } }),
        'not json',
        JSON.stringify({ type: 'text-delta', id: '0', delta: 'You asked: hi' }),
        JSON.stringify({ type: 'finish' }),
        '[DONE]',
      ]),
    );
    const p = fakePort(fromPanel);
    handle(p.port);
    const request = { model: 'm', text: 'hi', page: { url: 'https://a.b/', title: 'T', text: 'body' } };
    p.send({ type: 'start', id: 't1', request });
    await vi.waitFor(() => expect(p.posted.at(-1)).toEqual({ type: 'done', id: 't1' }));

    const [url, init] = deps.fetch.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/chat');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok123456');
    expect(new Headers(init?.headers).get('lang-type')).toBe('fr');
    expect(JSON.parse((init?.body as FormData).get('request') as string)).toEqual(request);
    // Parsed once, by the shared parser; malformed events are skipped.
    expect(p.posted).toEqual([
      { type: 'chunk', id: 't1', chunk: { type: 'start', messageMetadata: { chatId: 'c1' } } },
      { type: 'chunk', id: 't1', chunk: { type: 'text-delta', delta: 'You asked: hi' } },
      { type: 'chunk', id: 't1', chunk: { type: 'finish' } },
      { type: 'done', id: 't1' },
    ]);
  });

  it('sends attached files as `files` parts of the multipart request', async () => {
    const { deps, handle } = setup(async () => sseResponse(null, ['[DONE]']));
    const p = fakePort(fromPanel);
    handle(p.port);
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    p.send({
      type: 'start',
      id: 't1',
      request: { model: 'm', text: 'what is this?' },
      files: [{ name: 'Screenshot.png', mediaType: 'image/png', dataUrl: png }],
    });
    await vi.waitFor(() => expect(p.posted.at(-1)).toEqual({ type: 'done', id: 't1' }));
    const form = deps.fetch.mock.calls[0]![1]?.body as FormData;
    const files = form.getAll('files') as File[];
    expect(files).toHaveLength(1);
    expect(files[0]!.name).toBe('Screenshot.png');
    expect(files[0]!.type).toBe('image/png');
    expect([...new Uint8Array(await files[0]!.arrayBuffer())]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]);
  });

  it('refuses a turn whose files are not data: URLs, or too many', async () => {
    const { deps, handle } = setup(async () => sseResponse(null, ['[DONE]']));
    const p = fakePort(fromPanel);
    handle(p.port);
    const file = { name: 'a.png', mediaType: 'image/png', dataUrl: 'data:image/png;base64,AA==' };
    p.send({
      type: 'start',
      id: 't1',
      request: { model: 'm', text: 'x' },
      files: [{ ...file, dataUrl: 'https://x/' }],
    });
    p.send({ type: 'start', id: 't2', request: { model: 'm', text: 'x' }, files: Array(6).fill(file) });
    p.send({ type: 'start', id: 't3', request: { model: 'm', text: 'x' }, files: 'nope' });
    await tick();
    expect(deps.fetch).not.toHaveBeenCalled();
  });

  it('aborts the fetch when the page disconnects', async () => {
    let signal: AbortSignal | null | undefined;
    const { handle } = setup(async (_url, init) => {
      signal = init?.signal;
      return sseResponse(signal, [JSON.stringify({ type: 'text-delta', delta: 'x' })], true);
    });
    const p = fakePort(fromPanel);
    handle(p.port);
    p.send({ type: 'start', id: 't1', request: { model: 'm', text: 'hi' } });
    await vi.waitFor(() => expect(p.posted).toHaveLength(1));
    p.disconnectFromPage();
    expect(signal?.aborted).toBe(true);
    await tick();
    // Nothing is posted to a port that is gone.
    expect(p.posted).toHaveLength(1);
  });

  it('aborts the fetch on a stop message and ends the turn', async () => {
    let signal: AbortSignal | null | undefined;
    const { handle } = setup(async (_url, init) => {
      signal = init?.signal;
      return sseResponse(signal, [JSON.stringify({ type: 'text-delta', delta: 'x' })], true);
    });
    const p = fakePort(fromPanel);
    handle(p.port);
    p.send({ type: 'start', id: 't1', request: { model: 'm', text: 'hi' } });
    await vi.waitFor(() => expect(p.posted).toHaveLength(1));
    p.send({ type: 'abort', id: 't1' });
    expect(signal?.aborted).toBe(true);
    await vi.waitFor(() => expect(p.posted.at(-1)).toEqual({ type: 'done', id: 't1' }));
  });

  it('a 409 signs the extension out (once, through the API client) and reports the error', async () => {
    const { deps, handle } = setup(
      async () =>
        new Response(JSON.stringify({ status: 409, code: 'SESSION_REPLACED', message: 'You have been logged out' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const p = fakePort(fromPanel);
    handle(p.port);
    p.send({ type: 'start', id: 't1', request: { model: 'm', text: 'hi' } });
    await vi.waitFor(() => expect(p.posted).toHaveLength(1));
    expect(deps.drop).toHaveBeenCalledTimes(1);
    expect(deps.onLoggedOut).toHaveBeenCalledTimes(1);
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
    expect(p.posted[0]).toEqual({
      type: 'error',
      id: 't1',
      error: { status: 409, code: 'SESSION_REPLACED', message: 'You have been logged out' },
    });
  });

  it('without a token it asks to log in and does not fetch', async () => {
    const { deps, handle } = setup(async () => sseResponse(null, []), null);
    const p = fakePort(fromPanel);
    handle(p.port);
    p.send({ type: 'start', id: 't1', request: { model: 'm', text: 'hi' } });
    await vi.waitFor(() => expect(p.posted).toHaveLength(1));
    expect(p.posted[0]).toMatchObject({ type: 'error', error: { status: 401 } });
    expect(deps.fetch).not.toHaveBeenCalled();
  });
});

describe('TRANSCRIBE in the background', () => {
  const ctxOf = { sender: {}, kind: 'extension' } as never;
  const recording = `data:audio/webm;codecs=opus;base64,${btoa('voice bytes')}`;
  const transcribeHandler = (fetchImpl: typeof fetch, token: string | null = 'tok123456') => {
    const fetchMock = vi.fn(fetchImpl);
    const client = createApiClient({
      baseUrl: 'http://api.test',
      token: { get: () => token, drop: vi.fn() },
      language: () => 'es',
      onLoggedOut: vi.fn(),
      onUnauthorized: vi.fn(),
      fetch: fetchMock,
    });
    const handle = createTranscribeHandler({ ready: Promise.resolve(), hasToken: () => token !== null, client });
    return { handle, fetchMock };
  };
  const ok = async () =>
    new Response(JSON.stringify({ status: 200, message: 'OK', data: { text: 'hola a todos' } }), {
      headers: { 'content-type': 'application/json' },
    });

  it('posts the recording as the `audio` part with the token and answers the words', async () => {
    const { handle, fetchMock } = transcribeHandler(ok);
    await expect(handle({ audio: recording, name: 'voice.webm' }, ctxOf)).resolves.toEqual({ text: 'hola a todos' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/transcribe');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok123456');
    const audio = (init?.body as FormData).get('audio') as File;
    expect(audio.name).toBe('voice.webm');
    expect(await audio.text()).toBe('voice bytes');
  });

  it('refuses what is not a recording, and asks to log in without a token', async () => {
    const { handle, fetchMock } = transcribeHandler(ok);
    for (const data of [
      { audio: 'data:text/html;base64,PGgxPg==', name: 'voice.webm' },
      { audio: 'https://evil.example/a.webm', name: 'voice.webm' },
      { audio: recording, name: '../../etc/passwd' },
      { audio: 42, name: 'voice.webm' },
    ]) {
      await expect(handle(data as never, ctxOf)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect(fetchMock).not.toHaveBeenCalled();
    const signedOut = transcribeHandler(ok, null);
    await expect(signedOut.handle({ audio: recording, name: 'voice.webm' }, ctxOf)).rejects.toMatchObject({
      status: 401,
    });
    expect(signedOut.fetchMock).not.toHaveBeenCalled();
  });
});
