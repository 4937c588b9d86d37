import { randomBytes } from 'node:crypto';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateImage } from 'ai';
import { describe, expect, it } from 'vitest';
import { base64Answers } from './base64-answers.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes that start like a PNG, with '/' and '+' in their base64 (the characters a JSON writer may escape). */
const image = (size: number) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(64, 0xff), randomBytes(size)]);

/** A fetch answering every request with `body` (JSON unless `type` says otherwise), and what it answered. */
function answering(body: string, { status = 200, type = 'application/json' } = {}) {
  return (async () =>
    new Response(body, {
      status,
      headers: { 'content-type': type, 'content-length': String(body.length) },
    })) as typeof fetch;
}

/** generateImage through an OpenAI-compatible model whose answers pass through `base64Answers`. */
async function generate(fetch: typeof globalThis.fetch, n = 1) {
  const answers = base64Answers(fetch);
  let seenBySdk = '';
  const spy = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await answers.fetch(input, init);
    seenBySdk = await response.clone().text();
    return response;
  }) as typeof globalThis.fetch;
  const model = createOpenAICompatible({ name: 't', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch: spy });
  const result = await generateImage({ model: model.imageModel('sd'), prompt: 'a lighthouse', n, maxRetries: 0 });
  return { images: answers.images(result.images), seenBySdk };
}

describe('base64 image answers read natively', () => {
  it('decodes every image of the answer itself and gives the SDK short stand-ins', async () => {
    const [a, b] = [image(300_000), image(200_000)];
    const body = JSON.stringify({
      created: 1,
      data: [
        { b64_json: a.toString('base64'), revised_prompt: 'a "b64_json" lighthouse' },
        { b64_json: b.toString('base64') },
      ],
    });
    const { images, seenBySdk } = await generate(answering(body), 2);
    expect(Buffer.from(images[0]!).equals(a)).toBe(true);
    expect(Buffer.from(images[1]!).equals(b)).toBe(true);
    expect(seenBySdk.length).toBeLessThan(400);
    expect(JSON.parse(seenBySdk).data[0].revised_prompt).toBe('a "b64_json" lighthouse');
  });

  it('reads spaces around the colon, and leaves an escaped string to the SDK, which reads it right', async () => {
    const a = image(50_000);
    const escaped = a.toString('base64').replaceAll('/', '\\/');
    expect(escaped).toContain('\\/');
    const body = `{ "data" : [ { "b64_json" :\n "${a.toString('base64')}" }, {"b64_json":"${escaped}"} ] }`;
    const { images, seenBySdk } = await generate(answering(body), 2);
    expect(images.map((i) => Buffer.from(i).equals(a))).toEqual([true, true]);
    // The first was read here, the second (escaped) by the SDK.
    expect(seenBySdk.length).toBeGreaterThan(escaped.length);
    expect(seenBySdk.length).toBeLessThan(escaped.length + 200);
  });

  it('passes errors and other answers through as they came', async () => {
    const error = answering(JSON.stringify({ error: { message: 'Your request was rejected by the safety system.' } }), {
      status: 400,
    });
    await expect(generate(error)).rejects.toThrow('safety system');
    const answers = base64Answers(answering('"b64_json": "AAAA"', { type: 'text/plain' }));
    expect(await (await answers.fetch('http://127.0.0.1:9/')).text()).toBe('"b64_json": "AAAA"');
  });

  it('leaves a malformed answer for the SDK to refuse', async () => {
    const cut = `{"data":[{"b64_json":"${image(1000).toString('base64').slice(0, 500)}`;
    await expect(generate(answering(cut))).rejects.toThrow(/JSON|Invalid/i);
  });
});
