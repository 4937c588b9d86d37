import { describe, expect, it } from 'vitest';
import { chatStream, fileBytes, transcribe } from './streams';
import type { ApiClient } from './client';
import { json, loggedOut, ok, setup } from './test-server';

const encoder = new TextEncoder();

describe('chat: the streaming, multipart call', () => {
  it('posts the request and its files, and hands back the stream as it arrives', async () => {
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
    const { client, fetchMock } = setup(
      () => new Response(stream, { headers: { 'content-type': 'text/event-stream' } }),
    );
    const turn = { model: 'GPT_4O_MINI', text: 'what is this?', webSearch: false };
    const png = new File([new Uint8Array([0x89, 0x50])], 'shot.png', { type: 'image/png' });
    const controller = new AbortController();
    const response = await chatStream(client, turn as never, [png], controller.signal);

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/chat');
    expect(init?.method).toBe('POST');
    expect(init?.signal).toBe(controller.signal);
    const form = init?.body as FormData;
    expect(JSON.parse(form.get('request') as string)).toEqual(turn);
    const [sent] = form.getAll('files') as File[];
    expect(sent!.name).toBe('shot.png');
    expect([...new Uint8Array(await sent!.arrayBuffer())]).toEqual([0x89, 0x50]);
    // Multipart: the browser writes its content type with the boundary.
    expect(new Headers(init?.headers).has('content-type')).toBe(false);

    // The first chunk is readable before the answer ends.
    const reader = response.body!.getReader();
    push.enqueue(encoder.encode('data: {"type":"text-delta","delta":"Hel"}\n\n'));
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"Hel"');
    push.close();
    expect((await reader.read()).done).toBe(true);
  });

  it('a refusal before the answer (no credits) throws the server’s error; a JSON success is no answer', async () => {
    const refused = setup(() =>
      json({ status: 402, body: { status: 402, code: 'OUT_OF_CREDITS', message: 'Plus de crédits' } }),
    );
    await expect(chatStream(refused.client, { model: 'GPT_4O_MINI', text: 'hi' } as never)).rejects.toMatchObject({
      status: 402,
      code: 'OUT_OF_CREDITS',
      message: 'Plus de crédits',
    });

    const empty = setup(() => ok(null, 'OK'));
    await expect(chatStream(empty.client, { model: 'GPT_4O_MINI', text: 'hi' } as never)).rejects.toMatchObject({
      code: 'EMPTY_ANSWER',
    });
  });
});

describe('transcription and files', () => {
  it('transcribe posts one audio part and resolves with the text', async () => {
    const { client, fetchMock } = setup(() => ok({ text: 'bonjour' }));
    const audio = new Blob(['ogg bytes'], { type: 'audio/ogg' });
    await expect(transcribe(client, audio, 'voice.ogg')).resolves.toEqual({ text: 'bonjour' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/transcribe');
    expect(((init?.body as FormData).get('audio') as File).name).toBe('voice.ogg');
  });

  it('file resolves with the bytes; a missing one throws NOT_FOUND', async () => {
    const { client, fetchMock } = setup((url) =>
      url.endsWith('/f%2F1')
        ? new Response(new Uint8Array([7, 8, 9]), { headers: { 'content-type': 'application/pdf' } })
        : json({ status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'Introuvable' } }),
    );
    const blob = await fileBytes(client, 'f/1');
    expect(fetchMock.mock.calls[0]![0]).toBe('http://api.test/api/files/f%2F1');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([7, 8, 9]);
    await expect(fileBytes(client, 'gone')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('409 and 401 are the client’s rule for these calls too', () => {
  it('the same rule for the multipart, streaming and file calls', async () => {
    for (const run of [
      (c: ApiClient) => chatStream(c, { model: 'GPT_4O_MINI', text: 'hi' } as never),
      (c: ApiClient) => transcribe(c, new Blob(['x']), 'voice.webm'),
      (c: ApiClient) => fileBytes(c, 'f1'),
    ]) {
      const { client, drop, onLoggedOut } = setup(() => loggedOut());
      await expect(run(client)).rejects.toMatchObject({ status: 409, code: 'SESSION_REPLACED' });
      expect(drop).toHaveBeenCalledTimes(1);
      expect(onLoggedOut).toHaveBeenCalledTimes(1);
    }
  });
});
