import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeImages } from '../../test/fake-images.js';
import { collectGarbageEvery } from '../../test/gc.js';
import { pngChunk } from '../documents/image-fixtures.js';
import { encodeForm } from '../../test/sse.js';
import { IMAGES_MAX } from './images.service.js';
import { IMAGE_VERSIONS_MAX } from '@parley/contract';
import { ledgerMismatches, setCredits, walletOf } from '../../test/wallets.js';
import type * as Processing from './processing.js';

// Images are their owner's alone, every provider call is metered (charged per image made, refunded on failure), and
// nothing but a clean PNG or JPEG is ever stored or returned.

/**
 * An upload's proof (its full decode, made while the provider works on its clean copy) settles only once `gate.open`
 * resolves, when a test sets it: the order of the decode and the provider call is then the test's, not a race.
 */
const gate = vi.hoisted(() => ({ open: null as Promise<void> | null, queueFull: false }));
vi.mock('./processing.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Processing>();
  const { DomainError } = await import('../../lib/errors.js');
  return {
    ...actual,
    // `gate.queueFull`: the image queue refuses the provider's output as it does when flooded.
    normalizeOutput: async (...args: Parameters<typeof actual.normalizeOutput>) => {
      if (gate.queueFull) throw new DomainError('SERVICE_UNAVAILABLE');
      return actual.normalizeOutput(...args);
    },
    startUpload: async (bytes: Uint8Array) => {
      const started = await actual.startUpload(bytes);
      const open = gate.open;
      if (!open) return started;
      const proof = started.proof.finally(() => open);
      proof.catch(() => undefined);
      return { ...started, proof };
    },
  };
});

let fake: Awaited<ReturnType<typeof startFakeImages>>;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeImages();
  t = await createTestApp({
    ...fake.env(),
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
    // People's own keys may point at the loopback providers.
    ALLOW_PRIVATE_BASE_URLS: 'true',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type File = { field: string; name: string; type: string; bytes: Uint8Array };

async function post(
  url: string,
  token: string,
  fields: Record<string, string>,
  files: File[] = [],
  lang = 'en',
  app: TestApp = t,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const { payload, contentType } = await encodeForm(form);
  const res = await app.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'lang-type': lang },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}
const generate = (token: string, fields: Record<string, string>, files: File[] = [], lang?: string) =>
  post('/api/ai/imageGeneration', token, fields, files, lang);
const edit = (token: string, fields: Record<string, string>, files: File[] = [], lang?: string) =>
  post('/api/ai/imageEdit', token, fields, files, lang);
const upload = (token: string, file: Omit<File, 'field'>, lang?: string) =>
  post('/api/images/upload', token, {}, [{ ...file, field: 'image' }], lang);

async function fileOf(token: string, versionId: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/images/file/${versionId}${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers };
}

const photo = async (format: 'png' | 'jpeg' = 'png', width = 64, height = 48) => {
  const image = sharp({ create: { width, height, channels: 3, background: '#3366cc' } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
};
const pngFile = async (name = 'photo.png') => ({ name, type: 'image/png', bytes: await photo('png') });

/** A PNG whole in its structure (every chunk's CRC right) whose compressed pixels do not decode. */
async function undecodablePng() {
  const png = Buffer.from(
    await sharp(await photo('png'))
      .png({ compressionLevel: 0 })
      .toBuffer(),
  );
  const idat = png.indexOf('IDAT');
  const length = png.readUInt32BE(idat - 4);
  png.fill(0x55, idat + 4, idat + 4 + 64);
  png.writeUInt32BE(crc32(png.subarray(idat, idat + 4 + length)), idat + 4 + length);
  return png;
}

const onPaidPlan = async (email: string) =>
  t.database.db.execute(sql`UPDATE wallets SET plan = 'pro' WHERE id = ${(await walletOf(t.database.db, email)).id}`);

const userIdOf = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0]!.id;

describe('models', () => {
  it('lists every model with its price; the ones with a key are available', async () => {
    const u = await t.signUp();
    const res = await t.json('GET', '/api/ai/image-models', { token: u.token });
    expect(res.status).toBe(200);
    const flux = res.body.data.models.find((m: { id: string }) => m.id === 'FLUX_1_1_PRO');
    expect(flux).toMatchObject({ available: true, keySource: 'server', creditsPerImage: 2, tier: 'advance' });
  });

  it('without keys, every model shows as unavailable and generating says so', async () => {
    const bare = await createTestApp({});
    try {
      const u = await bare.signUp();
      const res = await bare.json('GET', '/api/ai/image-models', { token: u.token });
      expect(res.body.data.models.every((m: { available: boolean }) => !m.available)).toBe(true);
    } finally {
      await bare.close();
    }
  });
});

describe('generation', () => {
  it('a new account’s 3 daily and 5 advanced credits make four images of 2 credits: all 8 spent', async () => {
    const u = await t.signUp();
    const res = await generate(u.token, { prompt: 'a lighthouse at dusk', model: 'FLUX_1_1_PRO', count: '4' });
    expect(res.status).toBe(200);
    expect(res.body.data.images).toHaveLength(4);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 0, advanceCredit: 0, advanceUse: 8 });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('makes four images with FLUX, charges 2 credits each, and keeps them in the history', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { advanceCredit: 20, dailyCredit: 0 });
    const res = await generate(u.token, {
      prompt: 'a lighthouse at dawn',
      model: 'FLUX_1_1_PRO',
      count: '4',
      aspectRatio: '16:9',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.images).toHaveLength(4);
    expect(res.body.data.missing).toBe(0);
    expect((await walletOf(t.database.db, u.email)).advanceCredit).toBe(12);

    const first = res.body.data.images[0];
    expect(first).toMatchObject({ source: 'generated', prompt: 'a lighthouse at dawn', model: 'FLUX_1_1_PRO' });
    const file = await fileOf(u.token, first.versions[0].id, '?download=1');
    expect(file.status).toBe(200);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // An image may be kept by its owner's browser for an hour (the API's "no-store" is for its other answers).
    expect(file.headers['cache-control']).toBe('private, max-age=3600');
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment;.*a lighthouse at dawn\.(png|jpg)/);
    const meta = await sharp(file.bytes).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(16 / 9, 1);
    expect(meta.exif).toBeUndefined();
    const thumb = await fileOf(u.token, first.versions[0].id, '?size=thumb');
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(Math.max((await sharp(thumb.bytes).metadata()).width!, 1)).toBeLessThanOrEqual(384);

    const page1 = await t.json('GET', '/api/images?limit=3', { token: u.token });
    expect(page1.body.data.images).toHaveLength(3);
    const page2 = await t.json('GET', `/api/images?limit=3&cursor=${page1.body.data.nextCursor}`, { token: u.token });
    expect(page2.body.data.images).toHaveLength(1);
    expect(page2.body.data.nextCursor).toBeNull();
    const ids = [...page1.body.data.images, ...page2.body.data.images].map((i: { id: string }) => i.id).sort();
    expect(ids).toEqual(res.body.data.images.map((i: { id: string }) => i.id).sort());
  });

  it('keeps the provider’s image as it came, metadata gone; its thumbnail, made after the answer, is its proof', async () => {
    const u = await t.signUp();
    // A text chunk (what image tools write: the prompt, the software) before the end of the image.
    const plain = await photo('png', 96, 64);
    const chunk = Buffer.from(pngChunk('tEXt', [...Buffer.from('Comment\0Provider Camera', 'latin1')]));
    const drawn = Buffer.concat([plain.subarray(0, plain.length - 12), chunk, plain.subarray(plain.length - 12)]);
    expect(drawn.includes('Provider Camera')).toBe(true);
    fake.resultBytes = drawn;
    try {
      const res = await generate(u.token, { prompt: 'a kite', model: 'FAL_FLUX_DEV', count: '1' });
      expect(res.status).toBe(200);
      const version = res.body.data.images[0].versions[0];
      expect(version).toMatchObject({ mediaType: 'image/png', width: 96, height: 64 });
      const file = await fileOf(u.token, version.id);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.bytes.includes('Provider Camera')).toBe(false);
      expect(await sharp(file.bytes).raw().toBuffer()).toEqual(await sharp(drawn).raw().toBuffer());
      const thumb = await fileOf(u.token, version.id, '?size=thumb');
      expect(thumb.status).toBe(200);
      expect(await sharp(thumb.bytes).metadata()).toMatchObject({ format: 'webp', width: 96, height: 64 });

      // Whole in its structure, its pixels spoilt: kept (an image only, served as one), with a plain thumbnail that
      // is stored, so that it is not decoded again.
      fake.resultBytes = await undecodablePng();
      const broken = await generate(u.token, { prompt: 'a kite', model: 'FAL_FLUX_DEV', count: '1' });
      expect(broken.status).toBe(200);
      const brokenVersion = broken.body.data.images[0].versions[0].id;
      const plain = await fileOf(u.token, brokenVersion, '?size=thumb');
      expect(plain.status).toBe(200);
      expect(await sharp(plain.bytes).metadata()).toMatchObject({ format: 'webp', width: 64, height: 64 });
      const folder = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email));
      await access(path.join(folder, `${brokenVersion}-thumb`));
      const served = await fileOf(u.token, brokenVersion);
      expect([served.status, served.headers['content-type'], served.headers['x-content-type-options']]).toEqual([
        200,
        'image/png',
        'nosniff',
      ]);
    } finally {
      fake.resultBytes = null;
    }
  });

  it('an image deleted while its thumbnail is made leaves no file behind', async () => {
    const u = await t.signUp();
    // Large enough that its decode is still running when the delete comes.
    fake.resultBytes = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#446688' } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    try {
      const res = await generate(u.token, { prompt: 'a field', model: 'FAL_FLUX_DEV', count: '1' });
      expect(res.status).toBe(200);
      const deleted = await t.json('DELETE', `/api/images/delete/${res.body.data.images[0].id}`, { token: u.token });
      expect(deleted.status).toBe(200);
    } finally {
      fake.resultBytes = null;
    }
    await t.app.services.images.whenIdle();
    const folder = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email));
    expect(await readdir(folder).catch(() => [])).toEqual([]);
  });

  it('a thumbnail gone from the storage is made again when it is asked for', async () => {
    const u = await t.signUp();
    const res = await generate(u.token, { prompt: 'a harbour', model: 'FAL_FLUX_DEV', count: '1' });
    const version = res.body.data.images[0].versions[0];
    expect((await fileOf(u.token, version.id, '?size=thumb')).status).toBe(200);
    const thumbPath = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email), `${version.id}-thumb`);
    await rm(thumbPath);
    const again = await fileOf(u.token, version.id, '?size=thumb');
    expect(again.status).toBe(200);
    expect((await sharp(again.bytes).metadata()).format).toBe('webp');
    await access(thumbPath);
  });

  it('a refusal is said clearly, in the person’s language, and its credits come back', async () => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    const res = await generate(u.token, { prompt: 'refuse-me please', model: 'FLUX_1_1_PRO', count: '2' }, [], 'es');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'IMAGE_REFUSED' });
    expect(res.body.message).toMatch(/rechazó/);
    const after = await walletOf(t.database.db, u.email);
    expect(after.advanceCredit + after.dailyCredit).toBe(before.advanceCredit + before.dailyCredit);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('a provider failure is a 502 and refunds; nothing is kept', async () => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    for (const model of ['FAL_FLUX_DEV', 'REPLICATE_FLUX_SCHNELL', 'DALL_E_3']) {
      const res = await generate(u.token, { prompt: 'fail-me now', model, count: '1' });
      expect(res.status, model).toBe(502);
    }
    const after = await walletOf(t.database.db, u.email);
    expect(after).toMatchObject({ basicCredit: before.basicCredit, advanceCredit: before.advanceCredit });
    expect((await t.json('GET', '/api/images', { token: u.token })).body.data.images).toEqual([]);
  });

  it('on a person’s own key: sent with their key to their address, and no credit is spent', async () => {
    const u = await t.signUp();
    const added = await t.json('POST', '/api/api-key/add', {
      token: u.token,
      body: { provider: 'fal', apiKey: 'fal-own-key-1', baseUrl: `${fake.url}/fal` },
    });
    expect(added.status).toBe(200);
    const models = (await t.json('GET', '/api/ai/image-models', { token: u.token })).body.data.models;
    expect(models.find((m: { id: string }) => m.id === 'FAL_FLUX_DEV')).toMatchObject({ keySource: 'own' });
    const before = await walletOf(t.database.db, u.email);
    fake.requests.length = 0;
    const res = await generate(u.token, { prompt: 'a fox', model: 'FAL_FLUX_DEV', count: '2' });
    expect(res.status).toBe(200);
    expect(res.body.data.images).toHaveLength(2);
    const calls = fake.requests.filter((r) => r.provider === 'fal');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.headers.authorization === 'Key fal-own-key-1')).toBe(true);
    const after = await walletOf(t.database.db, u.email);
    expect(after).toMatchObject({ basicCredit: before.basicCredit, dailyCredit: before.dailyCredit });
  });

  it('the free tier gets 3 generations a day', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { basicCredit: 50 });
    for (let i = 0; i < 3; i++)
      expect((await generate(u.token, { prompt: `a cat ${i}`, model: 'FAL_FLUX_DEV' })).status).toBe(200);
    const fourth = await generate(u.token, { prompt: 'a cat 4', model: 'FAL_FLUX_DEV' });
    expect(fourth.status).toBe(402);
    expect(fourth.body.code).toBe('DAILY_LIMIT_REACHED');
  });

  it('refuses what the model cannot do, before any credit is taken', async () => {
    const u = await t.signUp();
    const cases: Record<string, string>[] = [
      { model: 'DALL_E_3', aspectRatio: '4:3' },
      { model: 'FAL_BACKGROUND_REMOVAL' },
      { model: 'FLUX_1_1_PRO', count: '5' },
    ];
    for (const c of cases) {
      const res = await generate(u.token, { prompt: 'a tree', ...c });
      expect(res.status, JSON.stringify(c)).toBe(400);
    }
    const ref = await generate(u.token, { prompt: 'a tree', model: 'DALL_E_3' }, [
      { field: 'reference', ...(await pngFile()) },
    ]);
    expect(ref.body.code).toBe('IMAGE_MODEL_CANNOT');
  });
});

describe('uploads are checked on their bytes', () => {
  it('refuses what is not a PNG or JPEG, whatever its name, with the §5 message', async () => {
    const u = await t.signUp();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    for (const bytes of [svg, html]) {
      const res = await upload(u.token, { name: 'cat.png', type: 'image/png', bytes });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 'IMAGE_FORMAT_UNSUPPORTED' });
      expect(res.body.message).toBe('Only PNG and JPEG are supported in the image editor.');
    }
  });

  it('refuses a truncated file and a huge declared canvas', async () => {
    const u = await t.signUp();
    const whole = await photo('png', 200, 200);
    const cut = await upload(u.token, {
      name: 'cut.png',
      type: 'image/png',
      bytes: whole.subarray(0, whole.length / 2),
    });
    expect(cut.status).toBe(400);
    expect(cut.body.code).toBe('INVALID_FILE');
    const huge = Buffer.from(whole);
    huge.writeUInt32BE(50_000, 16);
    huge.writeUInt32BE(50_000, 20);
    const big = await upload(u.token, { name: 'huge.png', type: 'image/png', bytes: huge });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('IMAGE_TOO_LARGE');
  });

  it('strips metadata, GPS included, from what is stored', async () => {
    const u = await t.signUp();
    const withGps = await sharp(await photo('jpeg'))
      .withExif({ IFD0: { Make: 'ParleyCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const res = await upload(u.token, { name: 'trip.jpg', type: 'image/jpeg', bytes: withGps });
    expect(res.status).toBe(200);
    const stored = await fileOf(u.token, res.body.data.image.versions[0].id);
    const meta = await sharp(stored.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(stored.bytes.includes(Buffer.from('ParleyCam'))).toBe(false);
  });
});

describe('editing', () => {
  it('remove background → colour → scene → remove text → back to the first and re-edit', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { basicCredit: 50, advanceCredit: 50 });
    await onPaidPlan(u.email); // more than the free tier's 3 edits a day
    const up = await upload(u.token, await pngFile());
    const image = up.body.data.image;
    const v1 = image.versions[0];

    const cut = await edit(u.token, { operation: 'removeBackground', imageId: image.id, versionId: v1.id });
    expect(cut.status).toBe(200);
    expect(cut.body.data.version).toMatchObject({
      parentId: v1.id,
      operation: 'removeBackground',
      mediaType: 'image/png',
    });
    const cutMeta = await sharp((await fileOf(u.token, cut.body.data.version.id)).bytes).metadata();
    expect(cutMeta.hasAlpha).toBe(true);

    const colour = await edit(u.token, {
      operation: 'changeBackground',
      imageId: image.id,
      versionId: cut.body.data.version.id,
      colour: '#ff0000',
    });
    expect(colour.status).toBe(200);
    const scene = await edit(u.token, {
      operation: 'changeBackground',
      imageId: image.id,
      versionId: colour.body.data.version.id,
      prompt: 'a beach at sunset',
      model: 'FLUX_KONTEXT_PRO',
    });
    expect(scene.status).toBe(200);
    // A new background behind the subject: nothing is see-through any more.
    const sceneStats = await sharp((await fileOf(u.token, scene.body.data.version.id)).bytes).stats();
    expect(sceneStats.isOpaque).toBe(true);
    const text = await edit(u.token, {
      operation: 'removeText',
      imageId: image.id,
      versionId: scene.body.data.version.id,
    });
    expect(text.status).toBe(200);
    const again = await edit(u.token, {
      operation: 'reEdit',
      imageId: image.id,
      versionId: v1.id,
      prompt: 'make it warmer',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.version.parentId).toBe(v1.id);
    expect(again.body.data.image.versions.map((v: { operation: string }) => v.operation)).toEqual([
      'upload',
      'removeBackground',
      'changeBackground',
      'changeBackground',
      'removeText',
      'reEdit',
    ]);
  });

  it('a mask goes only to a model that takes one', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { extraAdvanceCredit: 10 });
    const up = await upload(u.token, await pngFile());
    const { id, versions } = up.body.data.image;
    const mask = { field: 'mask', name: 'mask.png', type: 'image/png', bytes: await photo('png', 10, 10) };
    const refused = await edit(
      u.token,
      { operation: 'reEdit', imageId: id, versionId: versions[0].id, prompt: 'a hat', model: 'FLUX_KONTEXT_PRO' },
      [mask],
    );
    expect(refused.body.code).toBe('IMAGE_MODEL_CANNOT');
    const masked = await edit(
      u.token,
      { operation: 'reEdit', imageId: id, versionId: versions[0].id, prompt: 'a hat', model: 'GPT_IMAGE_1' },
      [mask],
    );
    expect(masked.status).toBe(200);
  });

  it('a file sent with an edit that does not decode is refused while the provider works: refunded, nothing kept', async () => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    // The file's decode fails only once the provider has the request; the provider is slow: the refusal does not
    // wait for it.
    let decodeMayEnd!: () => void;
    gate.open = new Promise((resolve) => (decodeMayEnd = resolve));
    const sent = fake.requests.length;
    fake.delayMs = 10_000;
    const started = performance.now();
    let res: Awaited<ReturnType<typeof edit>>;
    try {
      const answer = edit(u.token, { operation: 'removeBackground' }, [
        { field: 'image', name: 'broken.png', type: 'image/png', bytes: await undecodablePng() },
      ]);
      await expect
        .poll(() => fake.requests.slice(sent).some((r) => r.provider === 'fal'), { timeout: 5_000 })
        .toBe(true);
      decodeMayEnd();
      res = await answer;
    } finally {
      decodeMayEnd();
      gate.open = null;
      fake.delayMs = 0;
    }
    expect(performance.now() - started).toBeLessThan(8_000);
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_FILE']);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      basicCredit: before.basicCredit,
      dailyCredit: before.dailyCredit,
    });
    expect((await t.json('GET', '/api/images', { token: u.token })).body.data.images).toHaveLength(0);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    // No file either: neither the upload's nor one made of the provider's answer.
    const folder = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email));
    expect(await readdir(folder).catch(() => [])).toEqual([]);
  });

  it('a file sent with an edit the provider fails is kept all the same, and the edit refunded', async () => {
    const u = await t.signUp();
    const before = await walletOf(t.database.db, u.email);
    const res = await edit(u.token, { operation: 'reEdit', prompt: 'a hat, fail-me', model: 'FLUX_KONTEXT_PRO' }, [
      { field: 'image', name: 'me.jpg', type: 'image/jpeg', bytes: await photo('jpeg') },
    ]);
    expect([res.status, res.body.code]).toEqual([502, 'PROVIDER_ERROR']);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      basicCredit: before.basicCredit,
      advanceCredit: before.advanceCredit,
      dailyCredit: before.dailyCredit,
    });
    const kept = (await t.json('GET', '/api/images', { token: u.token })).body.data.images;
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ source: 'uploaded', name: 'me' });
    expect(kept[0].versions.map((v: { operation: string }) => v.operation)).toEqual(['upload']);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('an edit of a file sent with it keeps the file as a new image first', async () => {
    const u = await t.signUp();
    const res = await edit(u.token, { operation: 'removeBackground' }, [
      { field: 'image', ...(await pngFile('me.png')) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.image).toMatchObject({ source: 'uploaded', name: 'me' });
    expect(res.body.data.image.versions).toHaveLength(2);
  });
});

describe('an image is its owner’s alone', () => {
  it('another person’s image or version is not found, and nothing changes', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const up = await upload(owner.token, await pngFile());
    const { id, versions } = up.body.data.image;
    const mine = (await upload(other.token, await pngFile())).body.data.image;

    expect((await t.json('GET', `/api/images/get/${id}`, { token: other.token })).status).toBe(404);
    expect((await fileOf(other.token, versions[0].id)).status).toBe(404);
    expect((await t.json('DELETE', `/api/images/delete/${id}`, { token: other.token })).status).toBe(404);
    expect(
      (await edit(other.token, { operation: 'removeBackground', imageId: id, versionId: versions[0].id })).status,
    ).toBe(404);
    // Their own image with someone else's version.
    expect(
      (await edit(other.token, { operation: 'removeBackground', imageId: mine.id, versionId: versions[0].id })).status,
    ).toBe(404);
    expect((await fileOf(owner.token, versions[0].id)).status).toBe(200);
    expect((await t.json('GET', `/api/images/get/${id}`, { token: owner.token })).body.data.versions).toHaveLength(1);
  });

  it('deleting an image removes its files; the sweep keeps images’ files and chat’s', async () => {
    const u = await t.signUp();
    const up = await upload(u.token, await pngFile());
    const folder = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email));
    expect((await readdir(folder)).length).toBe(2);
    const kept = await upload(u.token, await pngFile());
    expect((await readdir(folder)).length).toBe(4);
    // Files written more than an hour ago are swept only when no module claims them.
    await t.app.services.chat.sweepOrphans(0);
    expect((await readdir(folder)).length).toBe(4);
    expect((await t.json('DELETE', `/api/images/delete/${up.body.data.image.id}`, { token: u.token })).status).toBe(
      200,
    );
    expect((await readdir(folder)).length).toBe(2);
    expect((await fileOf(u.token, kept.body.data.image.versions[0].id)).status).toBe(200);
  });
});

describe('what goes wrong is said, and leaves nothing behind', () => {
  it('a tampered history cursor is a 400', async () => {
    const u = await t.signUp();
    const id = '00000000-0000-4000-8000-000000000000';
    for (const raw of [
      `+010000-01-01T00:00:00.000Z|${id}`,
      `-100000-01-01T00:00:00.000Z|${id}`,
      // Well formed, a date to JavaScript, but a year the database has not got.
      `0000-01-01T00:00:00.000Z|${id}`,
      `2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`,
      `2026-01-01T00:00:00.000Z|${id}|more`,
      'nonsense',
    ]) {
      const cursor = Buffer.from(raw).toString('base64url');
      expect((await t.json('GET', `/api/images?cursor=${cursor}`, { token: u.token })).status, raw).toBe(400);
    }
  });

  it('a file gone from the storage is not found, when read and when edited', async () => {
    const u = await t.signUp();
    const { image } = (await upload(u.token, await pngFile())).body.data;
    const folder = path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email));
    for (const name of await readdir(folder)) await rm(path.join(folder, name));
    expect((await fileOf(u.token, image.versions[0].id)).status).toBe(404);
    const res = await edit(u.token, {
      operation: 'removeBackground',
      imageId: image.id,
      versionId: image.versions[0].id,
    });
    expect(res.status).toBe(404);
  });

  it('a storage that cannot be written is a 503, refunded', async () => {
    const u = await t.signUp();
    // Where this person's images go is a file, not a folder: every write fails.
    await mkdir(path.join(t.config.dataDir, 'files', 'images'), { recursive: true });
    await writeFile(path.join(t.config.dataDir, 'files', 'images', await userIdOf(u.email)), 'not a folder');
    const before = await walletOf(t.database.db, u.email);
    const res = await generate(u.token, { prompt: 'a boat', model: 'FAL_FLUX_DEV', count: '2' });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      basicCredit: before.basicCredit,
      dailyCredit: before.dailyCredit,
    });
  });

  it("a full image queue is a 503 (try again shortly), not the provider's failure, refunded", async () => {
    const u = await t.signUp();
    const { image } = (await upload(u.token, await pngFile())).body.data;
    const before = await walletOf(t.database.db, u.email);
    gate.queueFull = true;
    try {
      const made = await generate(u.token, { prompt: 'a boat', model: 'FAL_FLUX_DEV', count: '1' });
      const edited = await edit(u.token, {
        operation: 'removeBackground',
        imageId: image.id,
        versionId: image.versions[0].id,
      });
      for (const res of [made, edited]) {
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      }
    } finally {
      gate.queueFull = false;
    }
    expect(await walletOf(t.database.db, u.email)).toMatchObject({
      basicCredit: before.basicCredit,
      dailyCredit: before.dailyCredit,
    });
  });

  it('the images a person keeps are capped, also when uploads race', async () => {
    const u = await t.signUp();
    const userId = await userIdOf(u.email);
    await t.database.db.execute(
      sql`INSERT INTO images (user_id, source, name) SELECT ${userId}, 'uploaded', 'x' FROM generate_series(1, ${IMAGES_MAX - 2})`,
    );
    const results = await Promise.all(Array.from({ length: 5 }, async () => upload(u.token, await pngFile())));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 400, 400, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe('TOO_MANY_ITEMS');
    const counted = await t.database.db.execute(sql`SELECT count(*)::int AS n FROM images WHERE user_id = ${userId}`);
    expect((counted as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(IMAGES_MAX);
  });

  it('the versions of an image are capped, also when edits race: the others are refunded and keep nothing', async () => {
    const u = await t.signUp();
    await setCredits(t.database.db, u.email, { basicCredit: 50 });
    await onPaidPlan(u.email);
    const image = (await upload(u.token, await pngFile())).body.data.image;
    const first = image.versions[0];
    const userId = await userIdOf(u.email);
    await t.database.db.execute(sql`
      INSERT INTO image_versions (image_id, user_id, parent_id, operation, media_type, width, height, bytes, file_key, thumb_key)
      SELECT ${image.id}, ${userId}, ${first.id}, 'removeBackground', media_type, width, height, bytes, file_key, thumb_key
        FROM image_versions, generate_series(1, ${IMAGE_VERSIONS_MAX - 3}) WHERE id = ${first.id}`);
    const filesBefore = (await readdir(path.join(t.config.dataDir, 'files', 'images', userId))).length;
    const before = await walletOf(t.database.db, u.email);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        edit(u.token, { operation: 'removeBackground', imageId: image.id, versionId: first.id }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 400, 400, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe('TOO_MANY_ITEMS');
    // Each answer has the image as it was when its version was added: the last one added shows all of them.
    const counts = results.filter((r) => r.status === 200).map((r) => r.body.data.image.versions.length);
    expect(counts.sort((a, b) => a - b)).toEqual([IMAGE_VERSIONS_MAX - 1, IMAGE_VERSIONS_MAX]);
    for (const r of results.filter((r) => r.status === 200))
      expect(r.body.data.image.versions.at(-1).id).toBe(r.body.data.version.id);
    const listed = await t.json('GET', `/api/images/get/${image.id}`, { token: u.token });
    expect(listed.body.data.versions).toHaveLength(IMAGE_VERSIONS_MAX);
    // Two versions' files and their thumbnails (made after the answers) more; none of the refused ones'.
    await t.app.services.images.whenIdle();
    expect((await readdir(path.join(t.config.dataDir, 'files', 'images', userId))).length).toBe(filesBefore + 4);
    // One credit for each version made (daily credits first), the refused ones' back.
    const after = await walletOf(t.database.db, u.email);
    expect(after.dailyCredit + after.basicCredit).toBe(before.dailyCredit + before.basicCredit - 2);
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('an edit refused before any provider call does not keep the file sent with it', async () => {
    const u = await t.signUp();
    const file = { field: 'image', ...(await pngFile()) };
    await setCredits(t.database.db, u.email, { dailyCredit: 1, basicCredit: 0 });
    expect((await edit(u.token, { operation: 'removeBackground' }, [file])).status).toBe(200);
    const refused = await edit(u.token, { operation: 'removeBackground' }, [file]);
    expect(refused.body.code).toBe('OUT_OF_CREDITS');
    expect((await t.json('GET', '/api/images', { token: u.token })).body.data.images).toHaveLength(1);
  });

  it('a file over the images’ limit is said with that limit', async () => {
    const u = await t.signUp();
    for (const mb of [21, 26]) {
      const bytes = Buffer.concat([await photo('png'), Buffer.alloc(mb * 1024 * 1024)]);
      const res = await upload(u.token, { name: 'big.png', type: 'image/png', bytes });
      expect(res.status, `${mb} MB`).toBe(413);
      expect(res.body.message).toBe('This file is too large. The limit is 20 MB.');
    }
  });

  it('with no model named, one on the person’s own key is chosen first, and costs no credit', async () => {
    const u = await t.signUp();
    const added = await t.json('POST', '/api/api-key/add', {
      token: u.token,
      body: { provider: 'openaiCompatibleImages', apiKey: 'sd-own-key-1', baseUrl: `${fake.url}/sd/v1` },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { image } = (await upload(u.token, await pngFile())).body.data;
    const before = await walletOf(t.database.db, u.email);
    const res = await edit(u.token, { operation: 'removeText', imageId: image.id, versionId: image.versions[0].id });
    expect(res.status).toBe(200);
    expect(res.body.data.version.model).toBe('LOCAL_STABLE_DIFFUSION');
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ advanceCredit: before.advanceCredit });
  });
});

describe('an edit’s provider call is bounded by AI_TIMEOUT_SECONDS', () => {
  it('also when garbage is collected while it waits', { timeout: 30_000 }, async () => {
    const slow = await createTestApp({ ...fake.env(), AI_TIMEOUT_SECONDS: '5' });
    const stopCollecting = collectGarbageEvery(100);
    fake.delayMs = 9_000;
    try {
      const u = await slow.signUp();
      const image = { field: 'image', name: 'me.jpg', type: 'image/jpeg', bytes: await photo('jpeg') };
      const started = performance.now();
      const res = await post('/api/ai/imageEdit', u.token, { operation: 'removeBackground' }, [image], 'en', slow);
      expect(res.status).toBe(502);
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      stopCollecting();
      fake.delayMs = 0;
      await slow.close();
    }
  });
});
