import { describe, expect, it } from 'vitest';
import { AFTER_DONE_MS, readSseData, readUiMessageStream, type StreamChunk } from './stream';

const encoder = new TextEncoder();

/** A body that delivers exactly these pieces, one read each. */
function body(pieces: (string | Uint8Array)[], end: 'close' | Error = 'close') {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) {
        const piece = pieces[i++]!;
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      } else if (end === 'close') controller.close();
      else controller.error(end);
    },
  });
}

async function collect<T>(source: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

const event = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;

describe('readSseData', () => {
  it('joins events split across reads, also in the middle of a line and of a UTF-8 character', async () => {
    const text = event({ type: 'text-delta', delta: 'héllo 👋' });
    const bytes = encoder.encode(text + event({ type: 'finish' }));
    const emoji = text.indexOf('👋');
    const cut = encoder.encode(text.slice(0, emoji)).length + 2; // inside the 4-byte emoji
    const data = await collect(readSseData(body([bytes.slice(0, 3), bytes.slice(3, cut), bytes.slice(cut)])));
    expect(data.map((d) => JSON.parse(d))).toEqual([{ type: 'text-delta', delta: 'héllo 👋' }, { type: 'finish' }]);
  });

  it('handles CRLF, multi-line data, comments and [DONE]', async () => {
    const data = await collect(
      readSseData(
        body([
          ': keep-alive\r\n\r\nevent: x\r\ndata: {"a":\r\n',
          'data: 1}\r\n\r\ndata: [DONE]\n\ndata: {"late":1}\n\n',
        ]),
      ),
    );
    expect(data).toEqual(['{"a":\n1}']);
  });

  it('after [DONE], reads the body to its end (a request left unread ends as aborted in the browser)', async () => {
    let pulls = 0;
    let cancelled = false;
    const pieces = [event({ type: 'finish' }) + 'data: [DONE]\n\n', ': the end\n\n'];
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          const piece = pieces.shift();
          if (piece) controller.enqueue(encoder.encode(piece));
          else controller.close();
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    expect(await collect(readSseData(source))).toEqual(['{"type":"finish"}']);
    // The event, what follows it, then the end: read, not cancelled.
    expect(pulls).toBe(3);
    expect(cancelled).toBe(false);
  });

  it('after [DONE], cancels a body that goes on', async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const started = Date.now();
    expect(await collect(readSseData(source))).toEqual([]);
    expect(cancelled).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(AFTER_DONE_MS - 50);
  });

  it('yields a last event that lacks its blank line', async () => {
    expect(await collect(readSseData(body(['data: {"type":"abort"}'])))).toEqual(['{"type":"abort"}']);
  });
});

describe('readUiMessageStream', () => {
  it('reads a whole answer: start, sources, text, finish', async () => {
    const chunks = await collect(
      readUiMessageStream(
        body([
          event({
            type: 'start',
            messageId: 'm1',
            messageMetadata: { chatId: 'c1', userMessageId: 'u1', modelLabel: 'Test' },
          }),
          event({ type: 'source-url', sourceId: 'source-1', url: 'https://a.example', title: 'A' }),
          event({ type: 'start-step' }) + event({ type: 'text-start', id: 't' }),
          event({ type: 'text-delta', id: 't', delta: 'You ' }).slice(0, 10),
          event({ type: 'text-delta', id: 't', delta: 'You ' }).slice(10) +
            event({ type: 'text-delta', delta: 'asked' }),
          'data: not json\n\n',
          event({ type: 'finish', messageMetadata: { citedPages: [2, 5] } }),
          'data: [DONE]\n\n',
        ]),
      ),
    );
    expect(chunks).toEqual<StreamChunk[]>([
      { type: 'start', messageId: 'm1', messageMetadata: { chatId: 'c1', userMessageId: 'u1', modelLabel: 'Test' } },
      { type: 'source-url', sourceId: 'source-1', url: 'https://a.example', title: 'A' },
      { type: 'other', original: 'start-step' },
      { type: 'other', original: 'text-start' },
      { type: 'text-delta', delta: 'You ' },
      { type: 'text-delta', delta: 'asked' },
      { type: 'finish', messageMetadata: { citedPages: [2, 5] } },
    ]);
  });

  it('passes on an error chunk with its localized text', async () => {
    const chunks = await collect(
      readUiMessageStream(
        body([
          event({ type: 'text-delta', delta: 'Hal' }),
          event({ type: 'error', errorText: 'Le fournisseur IA a renvoyé une erreur.' }),
        ]),
      ),
    );
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'Le fournisseur IA a renvoyé une erreur.' });
  });

  it('passes on an abort chunk, and a reader cancelled by the user ends with AbortError', async () => {
    expect(await collect(readUiMessageStream(body([event({ type: 'abort' })])))).toEqual([{ type: 'abort' }]);

    const seen: StreamChunk[] = [];
    const aborted = new DOMException('The user aborted a request.', 'AbortError');
    await expect(
      (async () => {
        for await (const chunk of readUiMessageStream(body([event({ type: 'text-delta', delta: 'partial' })], aborted)))
          seen.push(chunk);
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([{ type: 'text-delta', delta: 'partial' }]);
  });
});
