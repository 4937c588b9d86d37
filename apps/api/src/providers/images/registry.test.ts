import { crc32, deflateSync } from 'node:zlib';
import { IMAGE_MODELS, type ImageModelId } from '@parley/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { DomainError } from '../../lib/errors.js';
import { drawImage, FAKE_IMAGE_KEYS, startFakeImages, type FakeImages } from '../../test/fake-images.js';
import { createImageRegistry, MAX_PROVIDER_RESPONSE_BYTES } from './registry.js';
import { asImageBytes, keyGuard, MASKS_WAITING_MAX, transparentWhereWhite } from './shared.js';
import { ImageRefusedError, type ImageBytes, type OwnImageKey } from './types.js';

let fake: FakeImages;
/** A second set of providers: where a person's own keys point. */
let own: FakeImages;

const imagesConfig = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', ...env }).images;
const registryOn = (env: Record<string, string>) => createImageRegistry(imagesConfig(env), { pollIntervalMs: 5 });
let registry: ReturnType<typeof createImageRegistry>;

beforeAll(async () => {
  [fake, own] = await Promise.all([startFakeImages(), startFakeImages()]);
  registry = registryOn(fake.env());
});
afterAll(async () => {
  await Promise.all([fake.close(), own.close()]);
});
beforeEach(() => {
  for (const f of [fake, own]) {
    f.requests.length = 0;
    f.delayMs = 0;
    f.resultBytes = null;
    f.resultUrl = null;
    f.oversizedAnswers = null;
    f.streamedBytes = 0;
  }
});

const signal = () => AbortSignal.timeout(20_000);
const adapter = (id: ImageModelId, keys: OwnImageKey[] = []) => registry.resolve(id, keys).adapter;
const sent = (provider: string, f: FakeImages = fake) => f.requests.filter((r) => r.provider === provider);

async function look(image: ImageBytes) {
  const meta = await sharp(image.bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
}

async function pixel(image: ImageBytes | Buffer, x: number, y: number) {
  const { data, info } = await sharp('bytes' in image ? image.bytes : image)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i], data[i + 1], data[i + 2], data[i + 3]];
}

const png = async (prompt: string, width = 512, height = 512): Promise<ImageBytes> => ({
  bytes: new Uint8Array(await drawImage(prompt, width, height)),
  mediaType: 'image/png',
});

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageRefusedError);
  return (error as ImageRefusedError).reason;
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(ImageRefusedError);
  return error as Error;
}

describe('availability', () => {
  it('serves every model on the server keys the configuration names', () => {
    expect([...registry.availability([]).values()].every((v) => v === 'server')).toBe(true);
    expect(registry.resolve('DALL_E_3', []).keySource).toBe('server');
  });

  it('without keys every model is unavailable, and asking for one is MODEL_UNAVAILABLE', () => {
    const none = registryOn({});
    expect([...none.availability([]).entries()]).toEqual(IMAGE_MODELS.map((m) => [m.id, null]));
    const error = (() => {
      try {
        none.resolve('FLUX_1_1_PRO', []);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', params: { model: 'FLUX1.1 [pro]' } });
  });

  it("a person's own key makes their provider's models available, and wins over the server's", () => {
    const onlyFal = registryOn({ FAL_API_KEY: 'fal-server-key' });
    const keys: OwnImageKey[] = [
      { provider: 'blackForestLabs', apiKey: 'bfl-own' },
      { provider: 'fal', apiKey: 'fal-own' },
      // An OpenAI-compatible server without an address is no key at all.
      { provider: 'openaiCompatibleImages', apiKey: 'sd-own' },
    ];
    const map = onlyFal.availability(keys);
    expect(map.get('FLUX_1_1_PRO')).toBe('own');
    expect(map.get('FLUX_KONTEXT_PRO')).toBe('own');
    expect(map.get('FAL_FLUX_DEV')).toBe('own');
    expect(map.get('REPLICATE_FLUX_SCHNELL')).toBe(null);
    expect(map.get('LOCAL_STABLE_DIFFUSION')).toBe(null);
    expect(onlyFal.availability([]).get('FAL_FLUX_DEV')).toBe('server');
    expect(onlyFal.resolve('FAL_FLUX_DEV', keys).keySource).toBe('own');
    // An OpenAI key serves OpenAI's image models.
    expect(onlyFal.availability([{ provider: 'openai', apiKey: 'sk-own' }]).get('GPT_IMAGE_1')).toBe('own');
  });
});

describe('OpenAI', () => {
  it('DALL·E 3 makes one image per call at its own sizes, on the server key', async () => {
    const result = await adapter('DALL_E_3').generate({
      prompt: 'a lighthouse at dusk',
      aspectRatio: '16:9',
      count: 2,
      abortSignal: signal(),
    });
    expect(result.missing).toBe(0);
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect(image.mediaType).toBe('image/png');
      expect(await look(image)).toMatchObject({ format: 'png', width: 1792, height: 1024 });
    }
    const calls = sent('openai');
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.path).toBe('/openai/v1/images/generations');
      expect(call.headers.authorization).toBe(`Bearer ${FAKE_IMAGE_KEYS.openai}`);
      expect(call.body).toMatchObject({ model: 'dall-e-3', n: 1, size: '1792x1024', response_format: 'b64_json' });
    }
  });

  it('refuses a shape DALL·E 3 does not make before calling it', async () => {
    expect(
      await refusal(
        adapter('DALL_E_3').generate({ prompt: 'a cat', aspectRatio: '4:3', count: 1, abortSignal: signal() }),
      ),
    ).toBe('size');
    expect(sent('openai')).toHaveLength(0);
  });

  it('a content policy refusal is a safety refusal; one refused of two is missing; a 500 is a failure', async () => {
    const dalle = adapter('DALL_E_3');
    expect(
      await refusal(dalle.generate({ prompt: 'refuse-me', aspectRatio: '1:1', count: 1, abortSignal: signal() })),
    ).toBe('safety');
    const partly = await dalle.generate({
      prompt: 'refuse-one cat',
      aspectRatio: '1:1',
      count: 2,
      abortSignal: signal(),
    });
    expect(partly.images).toHaveLength(1);
    expect(partly.missing).toBe(1);
    const error = await failure(
      dalle.generate({ prompt: 'fail-me', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
    );
    expect(error.message).toContain('500');
  });

  it('GPT Image makes several images in one call, and follows a reference image through the edits endpoint', async () => {
    const gpt = adapter('GPT_IMAGE_1');
    const three = await gpt.generate({ prompt: 'a red fox', aspectRatio: '9:16', count: 3, abortSignal: signal() });
    expect(three.images).toHaveLength(3);
    expect(await look(three.images[0]!)).toMatchObject({ width: 1024, height: 1536 });
    expect(sent('openai')).toHaveLength(1);
    expect(sent('openai')[0]!.body).toMatchObject({ model: 'gpt-image-1', n: 3, size: '1024x1536' });

    fake.requests.length = 0;
    const reference = await png('a blue square');
    const guided = await gpt.generate({
      prompt: 'the same, in winter',
      aspectRatio: '1:1',
      count: 1,
      reference,
      abortSignal: signal(),
    });
    expect(await look(guided.images[0]!)).toMatchObject({ width: 1024, height: 1024 });
    const [call] = sent('openai');
    expect(call!.path).toBe('/openai/v1/images/edits');
    expect(call!.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(call!.body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'the same, in winter',
      size: '1024x1024',
      image: { type: 'image/png', width: 512, height: 512 },
    });
  });

  it('GPT Image edits as told, and only inside a brushed mask', async () => {
    const gpt = adapter('GPT_IMAGE_1');
    const image = await png('a green field', 256, 256);
    const edited = await gpt.edit({ instruction: 'make it autumn', image, abortSignal: signal() });
    expect(await look(edited)).toMatchObject({ format: 'png', width: 256, height: 256 });
    expect(await pixel(edited, 5, 5)).not.toEqual(await pixel(image, 5, 5));

    // White on the right half: only the right half may change.
    const mask = {
      bytes: new Uint8Array(
        await sharp({ create: { width: 256, height: 256, channels: 3, background: '#000000' } })
          .composite([
            {
              input: await sharp({ create: { width: 128, height: 256, channels: 3, background: '#ffffff' } })
                .png()
                .toBuffer(),
              left: 128,
              top: 0,
            },
          ])
          .png()
          .toBuffer(),
      ),
      mediaType: 'image/png',
    };
    fake.requests.length = 0;
    const masked = await gpt.edit({ instruction: 'a pond', image, mask, abortSignal: signal() });
    expect(await pixel(masked, 10, 10)).toEqual(await pixel(image, 10, 10));
    expect(await pixel(masked, 250, 10)).not.toEqual(await pixel(image, 250, 10));
    // OpenAI reads a mask as transparent where to change, the size of the image.
    expect(sent('openai')[0]!.body).toMatchObject({
      prompt: 'a pond',
      image: { width: 256, height: 256 },
      mask: { type: 'image/png', width: 256, height: 256 },
    });
  });

  it('GPT Image moderation is a safety refusal, for edits too', async () => {
    const gpt = adapter('GPT_IMAGE_1');
    expect(
      await refusal(gpt.generate({ prompt: 'refuse-me', aspectRatio: '1:1', count: 2, abortSignal: signal() })),
    ).toBe('safety');
    expect(
      await refusal(gpt.edit({ instruction: 'refuse-me', image: await png('x', 64, 64), abortSignal: signal() })),
    ).toBe('safety');
  });
});

describe('Black Forest Labs', () => {
  it('FLUX1.1 [pro] submits one job per image at its sizes, polls, and downloads results without the key', async () => {
    const result = await adapter('FLUX_1_1_PRO').generate({
      prompt: 'four tulips',
      aspectRatio: '16:9',
      count: 4,
      abortSignal: signal(),
    });
    expect(result.images).toHaveLength(4);
    for (const image of result.images)
      expect(await look(image)).toMatchObject({ format: 'jpeg', width: 1344, height: 768 });
    expect(result.images[0]!.mediaType).toBe('image/jpeg');
    const submits = sent('bfl').filter((r) => r.method === 'POST');
    expect(submits).toHaveLength(4);
    for (const call of submits) {
      expect(call.path).toBe('/bfl/v1/flux-pro-1.1');
      expect(call.headers['x-key']).toBe(FAKE_IMAGE_KEYS.blackForestLabs);
      expect(call.body).toMatchObject({ prompt: 'four tulips', width: 1344, height: 768 });
      expect(call.body).not.toHaveProperty('aspect_ratio');
    }
    const polls = sent('bfl').filter((r) => r.method === 'GET');
    expect(polls.length).toBeGreaterThanOrEqual(8); // pending, then ready
    expect(polls.every((r) => r.headers['x-key'] === FAKE_IMAGE_KEYS.blackForestLabs)).toBe(true);
    const downloads = sent('delivery');
    expect(downloads).toHaveLength(4);
    expect(downloads.every((r) => r.headers['x-key'] === undefined && r.headers.authorization === undefined)).toBe(
      true,
    );
  });

  it('FLUX1.1 [pro] takes a reference image as its image prompt', async () => {
    const reference = await png('a yellow circle', 128, 128);
    const result = await adapter('FLUX_1_1_PRO').generate({
      prompt: 'a poster',
      aspectRatio: '1:1',
      count: 1,
      reference,
      abortSignal: signal(),
    });
    expect(await look(result.images[0]!)).toMatchObject({ width: 1024, height: 1024 });
    const [submit] = sent('bfl').filter((r) => r.method === 'POST');
    expect(submit!.body!.image_prompt).toBe(Buffer.from(reference.bytes).toString('base64'));
    expect(submit!.body).not.toHaveProperty('input_image');
  });

  it('Kontext makes an aspect ratio, follows a reference as its input image, and edits as told', async () => {
    const kontext = adapter('FLUX_KONTEXT_PRO');
    const made = await kontext.generate({ prompt: 'a kite', aspectRatio: '9:16', count: 1, abortSignal: signal() });
    const size = await look(made.images[0]!);
    expect(size.height! / size.width!).toBeCloseTo(16 / 9, 1);
    expect(sent('bfl')[0]!.body).toMatchObject({ prompt: 'a kite', aspect_ratio: '9:16' });

    fake.requests.length = 0;
    const reference = await png('a red ball', 96, 96);
    await kontext.generate({
      prompt: 'the ball on a beach',
      aspectRatio: '1:1',
      count: 1,
      reference,
      abortSignal: signal(),
    });
    expect(sent('bfl')[0]!.body!.input_image).toBe(Buffer.from(reference.bytes).toString('base64'));

    fake.requests.length = 0;
    const image = await png('a grey car', 320, 200);
    const edited = await kontext.edit({
      instruction: 'change the background to a snowy street',
      image,
      abortSignal: signal(),
    });
    expect(await look(edited)).toMatchObject({ format: 'png', width: 320, height: 200 });
    expect(await pixel(edited, 2, 2)).not.toEqual(await pixel(image, 2, 2)); // the background changed
    expect(await pixel(edited, 160, 100)).toEqual(await pixel(image, 160, 100)); // the car did not
    expect(sent('bfl')[0]!.body).toMatchObject({
      prompt: 'change the background to a snowy street',
      input_image: Buffer.from(image.bytes).toString('base64'),
      output_format: 'png',
    });
  });

  it('a moderated request or result is a safety refusal, not a wait until the timeout', async () => {
    const flux = adapter('FLUX_1_1_PRO');
    const started = Date.now();
    expect(
      await refusal(flux.generate({ prompt: 'refuse-me', aspectRatio: '1:1', count: 1, abortSignal: signal() })),
    ).toBe('safety');
    expect(
      await refusal(flux.generate({ prompt: 'refuse-me-output', aspectRatio: '1:1', count: 2, abortSignal: signal() })),
    ).toBe('safety');
    expect(Date.now() - started).toBeLessThan(5_000);
    const partly = await flux.generate({
      prompt: 'refuse-one dog',
      aspectRatio: '1:1',
      count: 3,
      abortSignal: signal(),
    });
    expect(partly).toMatchObject({ missing: 1 });
    expect(partly.images).toHaveLength(2);
  });

  it('a 500 is a failure; a size it does not make is a size refusal', async () => {
    const error = await failure(
      adapter('FLUX_1_1_PRO').generate({ prompt: 'fail-me', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
    );
    expect(error.message).toContain('Black Forest Labs 500');
    expect(
      await refusal(
        adapter('FLUX_1_1_PRO').generate({
          prompt: 'a cat',
          aspectRatio: '2:1' as '1:1',
          count: 1,
          abortSignal: signal(),
        }),
      ),
    ).toBe('size');
  });
});

describe('fal', () => {
  it('FLUX.1 [dev] makes four images in one call, at fal’s named size, with the key in fal’s header', async () => {
    const result = await adapter('FAL_FLUX_DEV').generate({
      prompt: 'a mountain lake',
      aspectRatio: '16:9',
      count: 4,
      abortSignal: signal(),
    });
    expect(result).toMatchObject({ missing: 0 });
    expect(result.images).toHaveLength(4);
    for (const image of result.images)
      expect(await look(image)).toMatchObject({ format: 'jpeg', width: 1024, height: 576 });
    const [call, ...rest] = sent('fal');
    expect(rest).toHaveLength(0);
    expect(call).toMatchObject({
      path: '/fal/fal-ai/flux/dev',
      headers: { authorization: `Key ${FAKE_IMAGE_KEYS.fal}` },
      body: { prompt: 'a mountain lake', num_images: 4, image_size: 'landscape_16_9', enable_safety_checker: true },
    });
    expect(sent('delivery').every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('Stable Diffusion 3 makes its portrait size', async () => {
    const result = await adapter('FAL_SD3_MEDIUM').generate({
      prompt: 'a tall tower with the text "OPEN"',
      aspectRatio: '3:4',
      count: 1,
      abortSignal: signal(),
    });
    expect(await look(result.images[0]!)).toMatchObject({ width: 768, height: 1024 });
    expect(sent('fal')[0]!.path).toBe('/fal/fal-ai/stable-diffusion-v3-medium');
  });

  it('images its safety checker flags are left out and counted; all flagged is a refusal; a 500 a failure', async () => {
    const flux = adapter('FAL_FLUX_DEV');
    const partly = await flux.generate({
      prompt: 'refuse-one beach',
      aspectRatio: '1:1',
      count: 3,
      abortSignal: signal(),
    });
    expect(partly.images).toHaveLength(2);
    expect(partly.missing).toBe(1);
    // The black stand-in fal sends for a flagged image is never handed on.
    for (const image of partly.images) expect(await pixel(image, 2, 2)).not.toEqual([0, 0, 0, 255]);
    expect(
      await refusal(flux.generate({ prompt: 'refuse-me', aspectRatio: '1:1', count: 2, abortSignal: signal() })),
    ).toBe('safety');
    expect(
      (await failure(flux.generate({ prompt: 'fail-me', aspectRatio: '1:1', count: 1, abortSignal: signal() })))
        .message,
    ).toContain('fal 500');
  });

  it('BiRefNet removes the background: a PNG with alpha, transparent around the subject', async () => {
    const image = await png('a purple circle', 200, 160);
    const cut = await adapter('FAL_BACKGROUND_REMOVAL').removeBackground({ image, abortSignal: signal() });
    expect(cut.mediaType).toBe('image/png');
    expect(await look(cut)).toMatchObject({ format: 'png', width: 200, height: 160, hasAlpha: true });
    expect((await pixel(cut, 1, 1))[3]).toBe(0);
    expect((await pixel(cut, 100, 80))[3]).toBe(255);
    const [call] = sent('fal');
    expect(call!.path).toBe('/fal/fal-ai/birefnet');
    expect(call!.body!.image_url).toBe(`data:image/png;base64,${Buffer.from(image.bytes).toString('base64')}`);
  });

  it('a model without an operation says so instead of calling anyone', async () => {
    await expect(
      adapter('FAL_BACKGROUND_REMOVAL').generate({ prompt: 'x', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
    ).rejects.toThrow();
    await expect(
      adapter('FAL_FLUX_DEV').removeBackground({ image: await png('x', 32, 32), abortSignal: signal() }),
    ).rejects.toThrow(/cannot remove a background/);
    expect(sent('fal')).toHaveLength(0);
  });
});

describe('Replicate', () => {
  it('FLUX.1 [schnell] makes several outputs in one prediction, waiting for it', async () => {
    const result = await adapter('REPLICATE_FLUX_SCHNELL').generate({
      prompt: 'a sailing boat',
      aspectRatio: '4:3',
      count: 2,
      abortSignal: signal(),
    });
    expect(result.images).toHaveLength(2);
    const size = await look(result.images[0]!);
    expect(size.format).toBe('png');
    expect(size.width! / size.height!).toBeCloseTo(4 / 3, 1);
    const [call, ...rest] = sent('replicate');
    expect(rest).toHaveLength(0);
    expect(call).toMatchObject({
      path: '/replicate/v1/models/black-forest-labs/flux-schnell/predictions',
      headers: { authorization: `Bearer ${FAKE_IMAGE_KEYS.replicate}`, prefer: 'wait' },
      body: { input: { prompt: 'a sailing boat', aspect_ratio: '4:3', num_outputs: 2, output_format: 'png' } },
    });
  });

  it('follows a prediction that was not finished when the wait ended', async () => {
    const result = await adapter('REPLICATE_FLUX_SCHNELL').generate({
      prompt: 'poll-me a bridge',
      aspectRatio: '1:1',
      count: 1,
      abortSignal: signal(),
    });
    expect(result.images).toHaveLength(1);
    const polls = sent('replicate').filter((r) => r.method === 'GET');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((r) => r.headers.authorization === `Bearer ${FAKE_IMAGE_KEYS.replicate}`)).toBe(true);
  });

  it('filtered outputs are missing, all filtered is a refusal, a 500 a failure', async () => {
    const schnell = adapter('REPLICATE_FLUX_SCHNELL');
    const partly = await schnell.generate({
      prompt: 'refuse-one cat',
      aspectRatio: '1:1',
      count: 4,
      abortSignal: signal(),
    });
    expect(partly.images).toHaveLength(3);
    expect(partly.missing).toBe(1);
    expect(
      await refusal(schnell.generate({ prompt: 'refuse-me', aspectRatio: '1:1', count: 2, abortSignal: signal() })),
    ).toBe('safety');
    expect(
      (await failure(schnell.generate({ prompt: 'fail-me', aspectRatio: '1:1', count: 1, abortSignal: signal() })))
        .message,
    ).toContain('Replicate 500');
  });
});

describe('an OpenAI-compatible images server', () => {
  it('makes images at Stable Diffusion sizes with its configured model, and edits inside a mask', async () => {
    const sd = adapter('LOCAL_STABLE_DIFFUSION');
    const result = await sd.generate({ prompt: 'a castle', aspectRatio: '16:9', count: 2, abortSignal: signal() });
    expect(result.images).toHaveLength(2);
    expect(await look(result.images[1]!)).toMatchObject({ width: 1344, height: 768 });
    expect(sent('compatible')[0]).toMatchObject({
      path: '/sd/v1/images/generations',
      headers: { authorization: `Bearer ${FAKE_IMAGE_KEYS.compatible}` },
      body: { model: 'sd-fake', n: 2, size: '1344x768' },
    });

    const image = await png('a castle', 128, 128);
    const mask: ImageBytes = {
      bytes: new Uint8Array(
        await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } })
          .png()
          .toBuffer(),
      ),
      mediaType: 'image/png',
    };
    const edited = await sd.edit({ instruction: 'remove the text', image, mask, abortSignal: signal() });
    // The whole image was white in the mask (stretched to its size): all of it may change.
    expect(await pixel(edited, 3, 3)).not.toEqual(await pixel(image, 3, 3));
    expect(sent('compatible')[1]).toMatchObject({
      path: '/sd/v1/images/edits',
      body: { model: 'sd-fake', prompt: 'remove the text', mask: { width: 128, height: 128 } },
    });
  });

  it('a size the server does not make is a size refusal', async () => {
    const small = await startFakeImages({ maxSide: 512 });
    try {
      const sd = registryOn(small.env()).resolve('LOCAL_STABLE_DIFFUSION', []).adapter;
      expect(
        await refusal(sd.generate({ prompt: 'a tree', aspectRatio: '1:1', count: 1, abortSignal: signal() })),
      ).toBe('size');
    } finally {
      await small.close();
    }
  });
});

describe("people's own keys", () => {
  it('go to their own base URL only, and the server key goes nowhere', async () => {
    const withPrivate = registryOn({ ...fake.env(), ALLOW_PRIVATE_BASE_URLS: 'true' });
    const keys: OwnImageKey[] = [
      { provider: 'blackForestLabs', apiKey: 'bfl-own-key', baseUrl: `${own.url}/bfl/v1` },
      { provider: 'openaiCompatibleImages', apiKey: 'sd-own-key', baseUrl: `${own.url}/sd/v1`, modelName: 'sdxl-own' },
    ];
    const flux = withPrivate.resolve('FLUX_1_1_PRO', keys);
    expect(flux.keySource).toBe('own');
    await flux.adapter.generate({ prompt: 'mine', aspectRatio: '1:1', count: 1, abortSignal: signal() });
    const sd = withPrivate.resolve('LOCAL_STABLE_DIFFUSION', keys);
    await sd.adapter.generate({ prompt: 'mine', aspectRatio: '1:1', count: 1, abortSignal: signal() });

    expect(fake.requests).toHaveLength(0);
    expect(sent('bfl', own).filter((r) => r.method === 'POST')[0]!.headers['x-key']).toBe('bfl-own-key');
    expect(sent('compatible', own)[0]).toMatchObject({
      headers: { authorization: 'Bearer sd-own-key' },
      body: { model: 'sdxl-own' },
    });
    expect(JSON.stringify(own.requests)).not.toContain(FAKE_IMAGE_KEYS.blackForestLabs);
  });

  it('never reach a private address unless the server allows it', async () => {
    const keys: OwnImageKey[] = [{ provider: 'fal', apiKey: 'fal-own-key', baseUrl: `${own.url}/fal` }];
    const error = await failure(
      registry.resolve('FAL_FLUX_DEV', keys).adapter.generate({
        prompt: 'mine',
        aspectRatio: '1:1',
        count: 1,
        abortSignal: signal(),
      }),
    );
    expect(error.message).toMatch(/private or reserved/);
    expect(own.requests).toHaveLength(0);
  });
});

describe('time and keys', () => {
  it("the caller's signal ends a slow call with its own reason", async () => {
    fake.delayMs = 3_000;
    const started = Date.now();
    const error = await adapter('DALL_E_3')
      .generate({ prompt: 'slow', aspectRatio: '1:1', count: 1, abortSignal: AbortSignal.timeout(150) })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a key header is sent only to the hosts allowed', async () => {
    const seen: (string | null)[] = [];
    const guarded = keyGuard(
      async (_input, init) => {
        seen.push(new Headers(init?.headers).get('authorization'));
        return new Response('{}');
      },
      (url) => url.hostname === 'api.example',
    );
    await guarded('https://api.example/v1/images', { headers: { authorization: 'Bearer k' } });
    await guarded('https://cdn.example/file.png', { headers: { authorization: 'Bearer k', accept: 'image/*' } });
    expect(seen).toEqual(['Bearer k', null]);
  });
});

/** A small SVG that libvips draws (sized, blurred circles): a "picture" no provider should hand us. */
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><defs><filter id="b"><feGaussianBlur stdDeviation="6"/>' +
    '</filter></defs><circle cx="30" cy="32" r="20" fill="#c33" filter="url(#b)"/>' +
    '<circle cx="66" cy="32" r="20" fill="#33c" filter="url(#b)"/></svg>',
);

/** A PNG whose header says `width` × `height` and whose pixels are a few bytes: measurable, never decodable. */
function pngClaiming(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('what providers send back', () => {
  it('PNG, JPEG and WebP are known by their bytes and handed on as they are, never decoded here', async () => {
    const drawn = await drawImage('a pear', 64, 48);
    for (const [bytes, mediaType] of [
      [drawn, 'image/png'],
      [await sharp(drawn).jpeg().toBuffer(), 'image/jpeg'],
      [await sharp(drawn).webp().toBuffer(), 'image/webp'],
    ] as const) {
      const data = new Uint8Array(bytes);
      const result = asImageBytes(data);
      expect(result.mediaType).toBe(mediaType);
      expect(result.bytes).toBe(data);
    }
    // The images module converts WebP; a Replicate WebP goes there as it came.
    fake.resultBytes = await sharp(drawn).webp().toBuffer();
    const made = await adapter('REPLICATE_FLUX_SCHNELL').generate({
      prompt: 'a pear',
      aspectRatio: '1:1',
      count: 1,
      abortSignal: signal(),
    });
    expect(made.images[0]).toMatchObject({ mediaType: 'image/webp' });
  });

  it('anything else libvips would read (a sized SVG that draws, TIFF, GIF) is a failure, not an image', async () => {
    const drawn = await drawImage('a plum', 64, 48);
    // The SVG is a real picture: libvips draws it.
    expect(await sharp(await sharp(SVG).png().toBuffer()).metadata()).toMatchObject({ width: 96, height: 64 });
    const others = {
      svg: SVG,
      tiff: await sharp(drawn).tiff().toBuffer(),
      gif: await sharp(drawn).gif().toBuffer(),
      html: Buffer.from('<!doctype html><title>an error page</title>'),
    };
    for (const [name, bytes] of Object.entries(others))
      expect(() => asImageBytes(new Uint8Array(bytes)), name).toThrow(/not a PNG, JPEG or WebP/);

    // Through the adapters: by URL (fal, Black Forest Labs, Replicate) and as b64_json (OpenAI).
    const cases: [ImageModelId, Buffer][] = [
      ['FAL_FLUX_DEV', others.svg],
      ['FLUX_1_1_PRO', others.tiff],
      ['REPLICATE_FLUX_SCHNELL', others.gif],
      ['DALL_E_3', others.svg],
    ];
    for (const [model, bytes] of cases) {
      fake.resultBytes = bytes;
      const error = await failure(
        adapter(model).generate({ prompt: 'a plum', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
      );
      expect(error.message, model).toMatch(/not a PNG, JPEG or WebP/);
    }
  });

  it("an OpenAI mask is made only from a PNG or JPEG within the images module's size caps", async () => {
    const image = await png('a lamp', 64, 64);
    const mask: ImageBytes = { bytes: new Uint8Array(await drawImage('mask', 32, 32)), mediaType: 'image/png' };
    const made = await transparentWhereWhite(mask, image);
    expect(await look(made)).toMatchObject({ format: 'png', width: 64, height: 64, hasAlpha: true });

    for (const bytes of [
      SVG,
      await sharp(await drawImage('mask', 32, 32))
        .gif()
        .toBuffer(),
    ])
      await expect(
        transparentWhereWhite({ bytes: new Uint8Array(bytes), mediaType: 'image/png' }, image),
      ).rejects.toThrow(/not a PNG or JPEG/);
    await expect(transparentWhereWhite(mask, { bytes: new Uint8Array(SVG), mediaType: 'image/png' })).rejects.toThrow(
      /not a PNG or JPEG/,
    );
    // 36 megapixels claimed: refused on the header, before a mask of that size is drawn.
    const started = Date.now();
    await expect(
      transparentWhereWhite(mask, { bytes: new Uint8Array(pngClaiming(6000, 6000)), mediaType: 'image/png' }),
    ).rejects.toThrow(/exceeds pixel limit/);
    expect(Date.now() - started).toBeLessThan(500);
    // A cut-off mask is refused rather than half-decoded.
    const whole = await sharp(await drawImage('mask', 256, 256, 'png', { photo: true }))
      .png()
      .toBuffer();
    const cut = new Uint8Array(whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(transparentWhereWhite({ bytes: cut, mediaType: 'image/png' }, image)).rejects.toThrow();
  });

  it('masks wait their turn one at a time, an edit called off leaves the queue, and a long queue is refused at once', async () => {
    const image = await png('a lamp', 64, 64);
    const mask: ImageBytes = { bytes: new Uint8Array(await drawImage('mask', 32, 32)), mediaType: 'image/png' };
    const stop = new AbortController();
    const first = transparentWhereWhite(mask, image);
    const calledOff = transparentWhereWhite(mask, image, stop.signal);
    const waiting = Array.from({ length: MASKS_WAITING_MAX - 1 }, () => transparentWhereWhite(mask, image));
    // The queue is full: one more is a 503 (try again shortly), without waiting.
    await expect(transparentWhereWhite(mask, image)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    stop.abort(new Error('the edit timed out'));
    await expect(calledOff).rejects.toThrow('the edit timed out');
    for (const made of await Promise.all([first, ...waiting]))
      expect(await look(made)).toMatchObject({ format: 'png', width: 64, height: 64 });
  });
});

describe('answers larger than Parley reads', () => {
  const HUGE = 400 * 1024 * 1024;
  /** What a stream may have written beyond the cap: the sockets' buffers on both sides, and the reader's queue. */
  const SLACK = 32 * 1024 * 1024;

  it('a result file that streams on past the cap fails the call quickly, with its length declared or not', async () => {
    for (const declared of [true, false]) {
      fake.streamedBytes = 0;
      fake.resultUrl = `${fake.deliveryUrl}/stream?bytes=${HUGE}${declared ? '&length=1' : ''}`;
      const started = Date.now();
      const error = await failure(
        adapter('FAL_FLUX_DEV').generate({ prompt: 'a hill', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
      );
      expect(error.message).toMatch(/fal: an answer was larger than Parley accepts/);
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 50));
      // Far below the 400 MiB offered: refused on its declared length, or cut off just past the cap.
      expect(fake.streamedBytes).toBeLessThan(declared ? SLACK : MAX_PROVIDER_RESPONSE_BYTES + SLACK);
    }
  });

  it('so does a JSON answer (OpenAI’s b64_json, a Replicate prediction, a Black Forest Labs job)', async () => {
    for (const model of ['DALL_E_3', 'REPLICATE_FLUX_SCHNELL', 'FLUX_1_1_PRO'] as const)
      for (const contentLength of [true, false]) {
        fake.streamedBytes = 0;
        fake.oversizedAnswers = { bytes: HUGE, contentLength };
        const started = Date.now();
        const error = await failure(
          adapter(model).generate({ prompt: 'a hill', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
        );
        expect(error.message, model).toMatch(/an answer was larger than Parley accepts/);
        expect(Date.now() - started).toBeLessThan(5_000);
        await new Promise((r) => setTimeout(r, 50));
        expect(fake.streamedBytes, model).toBeLessThan(contentLength ? SLACK : MAX_PROVIDER_RESPONSE_BYTES + SLACK);
      }
  });

  it('an answer under the cap is read whole', async () => {
    fake.resultUrl = `${fake.deliveryUrl}/stream?bytes=${4 * 1024 * 1024}&length=1`;
    // A PNG signature and filler: taken as a PNG here (the images module would find it broken).
    const made = await adapter('FAL_FLUX_DEV').generate({
      prompt: 'a hill',
      aspectRatio: '1:1',
      count: 1,
      abortSignal: signal(),
    });
    expect(made.images[0]!.bytes.byteLength).toBe(4 * 1024 * 1024);
  });
});

describe('result URLs', () => {
  /** A provider on a public-looking host name that resolves to this fake (the server key's configured base URL). */
  const publicLooking = (f: FakeImages) => ({
    ...f.env(),
    FAL_BASE_URL: `http://fal.example.test:${f.port}/fal`,
    BFL_BASE_URL: `http://bfl.example.test:${f.port}/bfl/v1`,
    REPLICATE_BASE_URL: `http://replicate.example.test:${f.port}/replicate/v1`,
  });
  const lookup = async (hostname: string) => {
    if (hostname.endsWith('.example.test')) return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  it("on the server's keys, results on private addresses are not fetched when the provider is elsewhere", async () => {
    const hostile = createImageRegistry(imagesConfig(publicLooking(fake)), { pollIntervalMs: 5, lookup });
    // The results are listed on 127.0.0.1 (the fake's delivery host): the provider's API is not there.
    for (const model of ['FAL_FLUX_DEV', 'FLUX_1_1_PRO', 'REPLICATE_FLUX_SCHNELL'] as const) {
      const error = await failure(
        hostile
          .resolve(model, [])
          .adapter.generate({ prompt: 'a hill', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
      );
      expect(error.message, model).toMatch(/private or reserved/);
    }
    expect(sent('fal')).toHaveLength(1); // the API itself was reached
    fake.resultUrl = 'http://169.254.169.254/latest/meta-data/iam';
    const metadata = await failure(
      hostile
        .resolve('FAL_FLUX_DEV', [])
        .adapter.generate({ prompt: 'a hill', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
    );
    expect(metadata.message).toMatch(/private or reserved/);
    expect(sent('delivery')).toHaveLength(0);
  });

  it('a provider on a private host may have its results on that same host, and on no other private one', async () => {
    // The fake's API and its delivery host are both on 127.0.0.1 (other ports).
    const made = await adapter('FAL_FLUX_DEV').generate({
      prompt: 'a hill',
      aspectRatio: '1:1',
      count: 1,
      abortSignal: signal(),
    });
    expect(made.images).toHaveLength(1);
    expect(sent('delivery')).toHaveLength(1);

    fake.requests.length = 0;
    fake.resultUrl = `http://localhost:${new URL(fake.deliveryUrl).port}/files/x.png`;
    const error = await failure(
      adapter('FAL_FLUX_DEV').generate({ prompt: 'a hill', aspectRatio: '1:1', count: 1, abortSignal: signal() }),
    );
    expect(error.message).toMatch(/private or reserved/);
    expect(sent('delivery')).toHaveLength(0);
  });

  it("on a person's own key allowed on a private host, results elsewhere on the network are refused too", async () => {
    const withPrivate = registryOn({ ...fake.env(), ALLOW_PRIVATE_BASE_URLS: 'true' });
    const keys: OwnImageKey[] = [{ provider: 'fal', apiKey: 'fal-own-key', baseUrl: `${own.url}/fal` }];
    const flux = withPrivate.resolve('FAL_FLUX_DEV', keys).adapter;
    expect(
      (await flux.generate({ prompt: 'mine', aspectRatio: '1:1', count: 1, abortSignal: signal() })).images,
    ).toHaveLength(1);
    own.resultUrl = `http://10.255.255.1:${new URL(own.deliveryUrl).port}/files/x.png`;
    const error = await failure(flux.generate({ prompt: 'mine', aspectRatio: '1:1', count: 1, abortSignal: signal() }));
    expect(error.message).toMatch(/private or reserved/);
  });
});
