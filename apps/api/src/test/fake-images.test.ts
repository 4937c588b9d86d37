import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { coloursFor, drawImage, editImage, removeBackground, startFakeImages } from './fake-images.js';
import { startFakeOpenAI } from './fake-openai.js';

async function rgbaAt(bytes: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i], data[i + 1], data[i + 2], data[i + 3]];
}

/** The pictures the fake providers draw are what the image tests (and a demo) look at: they must tell prompts apart. */
describe('the fake providers’ pictures', () => {
  it('are the same for the same prompt, different for another, at the size asked', async () => {
    const a = await drawImage('a red kite', 300, 200);
    expect(Buffer.compare(a, await drawImage('a red kite', 300, 200))).toBe(0);
    expect(Buffer.compare(a, await drawImage('a blue kite', 300, 200))).not.toBe(0);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
    expect(await rgbaAt(a, 0, 0)).toEqual([...coloursFor('a red kite').background, 255]);
    expect((await sharp(await drawImage('x', 64, 48, 'jpeg')).metadata()).format).toBe('jpeg');
  });

  it('draw text only when the prompt asks for some, and "remove the text" clears it', async () => {
    const band = async (bytes: Uint8Array) => {
      const { data, info } = await sharp(bytes)
        .extract({ left: 0, top: 320, width: 400, height: 80 }) // below any shape, where text goes
        .raw()
        .toBuffer({ resolveWithObject: true });
      const corner = [...data.subarray(0, 3)];
      let other = 0;
      for (let i = 0; i < data.length; i += info.channels)
        if (Math.abs(data[i]! - corner[0]!) + Math.abs(data[i + 1]! - corner[1]!) > 60) other += 1;
      return other;
    };
    const withText = await drawImage('a shop sign that says "OPEN"', 400, 400);
    expect(await band(withText)).toBeGreaterThan(200);
    expect(await band(await drawImage('a shop front', 400, 400))).toBe(0);
    expect(await band(await editImage(withText, 'remove the text'))).toBe(0);
  });

  it('with `photo`, are photographs of the same picture: still the same for the same prompt, and grainy', async () => {
    const a = await drawImage('a red kite', 300, 200, 'png', { photo: true });
    expect(Buffer.compare(a, await drawImage('a red kite', 300, 200, 'png', { photo: true }))).toBe(0);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
    // Flat colour compresses to almost nothing; grain does not.
    const flat = await drawImage('a red kite', 300, 200);
    expect(a.length).toBeGreaterThan(10 * flat.length);
    const { channels } = await sharp(a).stats();
    expect(channels[0]!.stdev).toBeGreaterThan(3);
  });

  it('cut the subject out onto transparency', async () => {
    const cut = await removeBackground(await drawImage('a green circle', 200, 200));
    expect((await rgbaAt(cut, 2, 2))[3]).toBe(0);
    expect((await rgbaAt(cut, 100, 100))[3]).toBe(255);
  });
});

/** `npm run fake-images` points OPENAI_BASE_URL at itself: OpenAI's chat models must still answer (through fake-ai). */
describe('OpenAI calls that are not about images', () => {
  it('are passed on to the chat server, streamed; without one they are refused saying what to start', async () => {
    const chat = await startFakeOpenAI();
    const images = await startFakeImages({ chatUrl: chat.baseUrl });
    const alone = await startFakeImages({ chatUrl: 'http://127.0.0.1:9/v1' });
    try {
      const ask = (base: string) =>
        fetch(`${base}/openai/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
          body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
        });
      const answer = await ask(images.url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/text\/event-stream/);
      expect(await answer.text()).toMatch(/data: .*"content"/);
      expect(chat.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer k' });
      const refused = await ask(alone.url);
      expect(refused.status).toBe(502);
      expect((await refused.json()).error.message).toMatch(/npm run fake-ai/);
      // Its images are still its own.
      const made = await fetch(`${images.url}/openai/v1/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify({
          model: 'dall-e-3',
          prompt: 'a red square',
          size: '1024x1024',
          response_format: 'b64_json',
        }),
      });
      expect(made.status).toBe(200);
      expect(chat.requests.some((r) => r.path.includes('images'))).toBe(false);
    } finally {
      await Promise.all([chat.close(), images.close(), alone.close()]);
    }
  });
});
