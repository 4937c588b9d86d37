import { APICallError, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { completeText, openProviderStream, toProviderPrompt } from './stream.js';

const streamOf = (parts: LanguageModelV3StreamPart[]) => ({
  stream: new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  }),
});

const refused = (status: number) =>
  new APICallError({
    message: `status ${status}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
  });

async function readAll(reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>) {
  const parts: LanguageModelV3StreamPart[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

describe('toProviderPrompt', () => {
  it('turns the chat context into the provider specification’s prompt, images as bytes with their type', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(
      toProviderPrompt('Be brief.', [
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'First answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', image: png, mediaType: 'image/png' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'First question' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'First answer' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', data: png, mediaType: 'image/png' },
        ],
      },
    ]);
  });

  it('leaves the system message out when there is none, and refuses images given by address', () => {
    expect(toProviderPrompt('', [{ role: 'user', content: 'Hi' }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(() =>
      toProviderPrompt('', [
        { role: 'user', content: [{ type: 'image', image: new URL('http://169.254.169.254/x.png') }] },
      ]),
    ).toThrow(TypeError);
  });
});

describe('openProviderStream', () => {
  const answer: LanguageModelV3StreamPart[] = [
    { type: 'text-start', id: '0' },
    { type: 'text-delta', id: '0', delta: 'Hello' },
    { type: 'text-end', id: '0' },
  ];

  it('asks again once after a retryable refusal, and streams the second answer', async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        calls += 1;
        if (calls === 1) throw refused(503);
        return streamOf(answer);
      },
    });
    const reader = await openProviderStream(model, {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      abortSignal: new AbortController().signal,
      maxRetries: 1,
      retryDelayMs: 1,
    });
    expect(await readAll(reader)).toEqual(answer);
    expect(calls).toBe(2);
    expect(model.doStreamCalls[0]!.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('does not retry a refusal that cannot succeed, nor more often than allowed', async () => {
    let calls = 0;
    const badKey = new MockLanguageModelV3({
      doStream: async () => {
        calls += 1;
        throw refused(401);
      },
    });
    const options = { prompt: [], abortSignal: new AbortController().signal, maxRetries: 1, retryDelayMs: 1 };
    await expect(openProviderStream(badKey, options)).rejects.toThrow('status 401');
    expect(calls).toBe(1);

    calls = 0;
    const down = new MockLanguageModelV3({
      doStream: async () => {
        calls += 1;
        throw refused(500);
      },
    });
    await expect(openProviderStream(down, options)).rejects.toThrow('status 500');
    expect(calls).toBe(2);
  });

  it('stops waiting to retry when the turn is aborted', async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw refused(429);
      },
    });
    const opening = openProviderStream(model, {
      prompt: [],
      abortSignal: controller.signal,
      maxRetries: 3,
      retryDelayMs: 60_000,
    });
    controller.abort(new Error('client went away'));
    await expect(opening).rejects.toThrow('client went away');
  });
});

describe('completeText', () => {
  it('sends the system text and the prompt, and answers with the text parts only', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'Quarterly ' },
          { type: 'text', text: 'numbers' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 2, text: 2, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const signal = new AbortController().signal;
    expect(await completeText(model, { system: 'Name it.', prompt: 'Q and A', abortSignal: signal })).toBe(
      'Quarterly numbers',
    );
    expect(model.doGenerateCalls).toEqual([
      {
        prompt: [
          { role: 'system', content: 'Name it.' },
          { role: 'user', content: [{ type: 'text', text: 'Q and A' }] },
        ],
        abortSignal: signal,
      },
    ]);
  });
});
