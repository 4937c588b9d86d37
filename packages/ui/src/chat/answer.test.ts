import { describe, expect, it } from 'vitest';
import { applyChunk, emptyAnswer, endAnswer } from './answer';
import type { StreamChunk } from './stream';

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
