import { describe, expect, it } from 'vitest';
import { applyChunk, emptyAnswer, endAnswer, type AnswerState } from './answer';
import { readUiMessageStream, type StreamChunk } from './stream';

const run = (chunks: StreamChunk[]) => chunks.reduce(applyChunk, emptyAnswer());

describe('applyChunk', () => {
  it('builds an answer from its chunks', () => {
    const answer = run([
      { type: 'start', messageMetadata: { chatId: 'c1', modelLabel: 'Model' } },
      { type: 'source-url', sourceId: 'src-2', url: 'https://a.example/', title: 'A' },
      { type: 'text-delta', delta: 'Hello ' },
      { type: 'other', original: 'text-end' },
      { type: 'text-delta', delta: 'world' },
      { type: 'finish', messageMetadata: { citedPages: [3] } },
    ]);
    expect(answer).toEqual({
      text: 'Hello world',
      sources: [{ n: 2, title: 'A', url: 'https://a.example/' }],
      citedPages: [3],
      status: 'complete',
      error: null,
      start: { chatId: 'c1', modelLabel: 'Model' },
    });
  });

  it('keeps a failure failed, and marks a cut-short answer stopped', () => {
    expect(run([{ type: 'error', errorText: 'boom' }, { type: 'finish' }])).toMatchObject({
      status: 'failed',
      error: 'boom',
    });
    expect(run([{ type: 'text-delta', delta: 'par' }, { type: 'abort' }]).status).toBe('stopped');
    expect(endAnswer(run([{ type: 'text-delta', delta: 'par' }])).status).toBe('stopped');
    expect(endAnswer(run([{ type: 'finish' }])).status).toBe('complete');
  });
});

/** The body of a chat answer as the API writes it (one `data:` event per chunk, split across reads at odd places). */
function sse(chunks: object[], cut = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(
    chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n',
  );
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, (at += cut)));
    },
  });
}

/** What the web chat and the extension's panel both do with an answer: parse, then reduce. */
async function reduce(body: ReadableStream<Uint8Array>): Promise<AnswerState> {
  let answer = emptyAnswer();
  for await (const chunk of readUiMessageStream(body)) answer = applyChunk(answer, chunk);
  return endAnswer(answer);
}

describe('a whole answer, from the stream to the state', () => {
  it('start, sources, steps, reasoning and text parts, finish: only the text is the answer', async () => {
    const answer = await reduce(
      sse([
        {
          type: 'start',
          messageId: 'a1',
          messageMetadata: { chatId: 'c1', userMessageId: 'q1', model: 'm', modelLabel: 'Model', keySource: 'own' },
        },
        { type: 'source-url', sourceId: 'source-1', url: 'https://a.example/', title: 'A' },
        { type: 'source-url', sourceId: 'source-2', url: 'https://b.example/' },
        { type: 'start-step' },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'The user wants a greeting…' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hello, ' },
        { type: 'text-delta', id: 't', delta: 'wörld 👋 [1]' },
        { type: 'text-end', id: 't' },
        { type: 'finish-step' },
        { type: 'finish', finishReason: 'stop', messageMetadata: { citedPages: [4] } },
      ]),
    );
    expect(answer).toEqual({
      text: 'Hello, wörld 👋 [1]',
      sources: [
        { n: 1, title: 'A', url: 'https://a.example/' },
        { n: 2, title: 'https://b.example/', url: 'https://b.example/' },
      ],
      citedPages: [4],
      status: 'complete',
      error: null,
      start: { chatId: 'c1', userMessageId: 'q1', model: 'm', modelLabel: 'Model', keySource: 'own' },
    });
  });

  it('an error while answering keeps what was written, fails with the server’s text, and stays failed', async () => {
    const answer = await reduce(
      sse([
        { type: 'start', messageMetadata: { chatId: 'c1' } },
        { type: 'text-delta', id: 't', delta: 'Half an ans' },
        { type: 'error', errorText: 'Le fournisseur IA a renvoyé une erreur.' },
        { type: 'finish' },
      ]),
    );
    expect(answer).toMatchObject({
      text: 'Half an ans',
      status: 'failed',
      error: 'Le fournisseur IA a renvoyé une erreur.',
    });
  });

  it('a stream cut before `finish` is an answer cut short', async () => {
    const cut = new TextEncoder().encode(`data: ${JSON.stringify({ type: 'text-delta', delta: 'partial' })}\n\n`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(cut);
        controller.close();
      },
    });
    expect(await reduce(body)).toMatchObject({ text: 'partial', status: 'stopped' });
  });

  it('a chunk that changes nothing leaves the same state (callers skip the re-render)', () => {
    const answer = emptyAnswer();
    expect(applyChunk(answer, { type: 'other', original: 'reasoning-delta' })).toBe(answer);
  });
});
