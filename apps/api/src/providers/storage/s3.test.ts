import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { safeError } from '../../lib/redact.js';
import { startFakeS3 } from '../../test/fake-s3.js';
import { createLocalStorage, type Storage } from './index.js';
import { createS3Storage } from './s3.js';

// The S3 storage against s3rver on loopback, held to what the local folder does: callers cannot tell them apart.

let dir: string;
let fake: Awaited<ReturnType<typeof startFakeS3>>;
const opened: { close(): void }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'parley-s3-'));
  fake = await startFakeS3({ directory: path.join(dir, 's3') });
});
afterAll(async () => {
  for (const storage of opened) storage.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
/** A fresh owner folder per test, so tests never see each other's keys. */
const owner = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const s3 = (extra: Partial<Parameters<typeof createS3Storage>[0]> = {}) => {
  const storage = createS3Storage({ ...fake.options, ...extra });
  opened.push(storage);
  return storage;
};

async function listAll(storage: Storage) {
  const keys: { key: string; modifiedAt: Date }[] = [];
  for await (const entry of storage.list()) keys.push(entry);
  return keys;
}

const kinds: [string, () => Storage][] = [
  ['local folder', () => createLocalStorage(path.join(dir, 'local'))],
  ['S3', () => s3()],
];

describe.each(kinds)('storage on the %s', (_name, make) => {
  it('puts, gets back the same bytes, overwrites, removes', async () => {
    const storage = make();
    const key = `${owner()}/a1b2c3`;
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
    await storage.put(key, bytes);
    const back = await storage.get(key);
    expect(Buffer.isBuffer(back)).toBe(true);
    expect(back.equals(bytes)).toBe(true);

    await storage.put(key, Buffer.from('second'));
    expect((await storage.get(key)).toString()).toBe('second');

    await storage.remove(key);
    await storage.remove(key); // twice is fine
    await expect(storage.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a missing key is an ENOENT error whose message does not name the key', async () => {
    const key = `${owner()}/missing`;
    const error = await make()
      .get(key)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code: 'ENOENT' });
    expect(JSON.stringify(safeError(error))).not.toContain(key.split('/')[0]);
  });

  it('refuses unsafe keys before touching anything, without repeating them', async () => {
    const storage = make();
    for (const key of ['../etc/passwd', '/abs/olute', 'a/../b', 'a//b', 'a.png', 'a/', '', 'a\\b', 'é']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/^unsafe storage key$/);
      await expect(storage.get(key)).rejects.toThrow(/^unsafe storage key$/);
      await expect(storage.remove(key)).rejects.toThrow(/^unsafe storage key$/);
    }
  });

  it('lists every key with when it was written', async () => {
    const storage = make();
    const folder = owner();
    const before = Date.now() - 60_000;
    const keys = [`${folder}/one`, `${folder}/two`, `${folder}/sub/three`];
    for (const key of keys) await storage.put(key, Buffer.from(key));
    const listed = (await listAll(storage)).filter((e) => e.key.startsWith(folder));
    expect(listed.map((e) => e.key).sort()).toEqual([...keys].sort());
    for (const entry of listed) {
      expect(entry.modifiedAt).toBeInstanceOf(Date);
      expect(entry.modifiedAt.getTime()).toBeGreaterThan(before);
    }
  });
});

describe('local folder storage', () => {
  it('makes a key’s folders when missing, also after they were removed by hand, and keeps files private', async () => {
    const root = path.join(dir, 'local-folders');
    const storage = createLocalStorage(root);
    const folder = owner();
    await storage.put(`${folder}/deep/er/one`, Buffer.from('one'));
    await storage.put(`${folder}/deep/er/two`, Buffer.from('two'));
    expect((await storage.get(`${folder}/deep/er/one`)).toString()).toBe('one');
    await rm(path.join(root, folder), { recursive: true });
    await storage.put(`${folder}/deep/er/one`, Buffer.from('again'));
    expect((await storage.get(`${folder}/deep/er/one`)).toString()).toBe('again');
    expect((await stat(path.join(root, folder, 'deep', 'er', 'one'))).mode & 0o777).toBe(0o600);
  });

  it('a failure other than a missing folder is not retried', async () => {
    const root = path.join(dir, 'local-blocked');
    const storage = createLocalStorage(root);
    const folder = owner();
    await storage.put(`${folder}/file`, Buffer.from('a file'));
    // A file where a folder should be: ENOTDIR, said as it is.
    await expect(storage.put(`${folder}/file/inside`, Buffer.from('x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('S3 storage', () => {
  it('lists across pages (ListObjectsV2 continuation)', async () => {
    const storage = s3({ pageSize: 2 });
    const folder = owner();
    const keys = Array.from({ length: 7 }, (_, i) => `${folder}/k${i}`);
    await Promise.all(keys.map((key) => storage.put(key, Buffer.from(key))));
    const listed = (await listAll(storage)).map((e) => e.key).filter((k) => k.startsWith(folder));
    expect(listed.sort()).toEqual(keys.sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('with a prefix, keeps to its own objects in a shared bucket', async () => {
    const other = s3(); // someone else's objects, at the bucket's root
    const mine = s3({ prefix: 'parley/', pageSize: 3 });
    const folder = owner();
    await other.put(`${folder}/theirs`, Buffer.from('theirs'));
    await mine.put(`${folder}/mine`, Buffer.from('mine'));
    expect((await mine.get(`${folder}/mine`)).toString()).toBe('mine');
    await expect(mine.get(`${folder}/theirs`)).rejects.toMatchObject({ code: 'ENOENT' });
    const listed = (await listAll(mine)).map((e) => e.key);
    expect(listed).toContain(`${folder}/mine`);
    expect(listed).not.toContain(`${folder}/theirs`);
    // Through the unprefixed view, the same object sits under parley/ (not a safe key, so not listed there).
    expect((await listAll(other)).map((e) => e.key)).not.toContain(`${folder}/mine`);
  });

  it('objects whose names are not safe keys are never listed', async () => {
    // Written by something else in the same bucket: a dot, a trailing slash (a console's "folder").
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const raw = new S3Client({
      region: fake.options.region,
      endpoint: fake.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: fake.options.accessKeyId, secretAccessKey: fake.options.secretAccessKey },
    });
    const folder = owner();
    for (const Key of [`${folder}/photo.jpg`, `${folder}/dir/`, `${folder}/../x`]) {
      await raw.send(new PutObjectCommand({ Bucket: fake.bucket, Key, Body: 'x' }));
    }
    raw.destroy();
    const listed = (await listAll(s3())).map((e) => e.key).filter((k) => k.startsWith(folder));
    expect(listed).toEqual([]);
  });

  describe('keys never logged', () => {
    afterEach(() => vi.restoreAllMocks());

    it('nothing is printed, and failures name neither the key nor its owner', async () => {
      const printed: string[] = [];
      for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
      }
      const folder = owner();
      const key = `${folder}/secret-id`;
      const storage = s3();
      await storage.put(key, Buffer.from('x'));
      await storage.get(key);
      await listAll(storage);
      await storage.remove(key);
      const missing = await storage.get(key).catch((e: unknown) => e);

      // A server that is gone: the SDK's error, as the error handler would log it.
      const gone = createS3Storage({ ...fake.options, endpoint: 'http://127.0.0.1:9' });
      const unreachable = await gone.get(key).catch((e: unknown) => e);
      const unwritable = await gone.put(key, Buffer.from('x')).catch((e: unknown) => e);
      gone.close();
      // A bucket that does not exist.
      const nowhere = createS3Storage({ ...fake.options, bucket: 'no-such-bucket' });
      const noBucket = await nowhere.put(key, Buffer.from('x')).catch((e: unknown) => e);
      nowhere.close();

      expect(printed).toEqual([]);
      for (const error of [missing, unreachable, unwritable, noBucket]) {
        expect(error).toBeInstanceOf(Error);
        const logged = JSON.stringify(safeError(error));
        expect(logged).not.toContain(folder);
        expect(logged).not.toContain('secret-id');
      }
    });
  });
});

describe('S3 configuration', () => {
  const keys = { S3_BUCKET: 'parley-files', S3_ACCESS_KEY_ID: 'AKIA123', S3_SECRET_ACCESS_KEY: 'secret' };

  it('is off without S3_ variables; on with the bucket and keys, path-style when an endpoint is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig(keys).s3).toEqual({
      bucket: 'parley-files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIA123',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: undefined,
    });
    const minio = loadConfig({ ...keys, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'eu-west-3' }).s3;
    expect(minio).toMatchObject({ endpoint: 'http://127.0.0.1:9000', region: 'eu-west-3', forcePathStyle: true });
    const vhost = loadConfig({ ...keys, S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }).s3;
    expect(vhost?.forcePathStyle).toBe(false);
    expect(loadConfig({ ...keys, S3_PREFIX: 'parley/files/' }).s3?.prefix).toBe('parley/files/');
  });

  it('a partial setup fails at start with what is missing', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problems({ S3_BUCKET: 'parley' })).toMatch(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required for S3 storage \(S3_BUCKET set\)/,
    );
    expect(problems({ S3_ENDPOINT: 'http://127.0.0.1:4569', S3_ACCESS_KEY_ID: 'a' })).toMatch(
      /S3_BUCKET, S3_SECRET_ACCESS_KEY: required for S3 storage/,
    );
    expect(problems({ ...keys, S3_BUCKET: 'Not_A_Bucket' })).toMatch(/S3_BUCKET/);
    expect(problems({ ...keys, S3_ENDPOINT: 'ftp://x' })).toMatch(/S3_ENDPOINT/);
    expect(problems({ ...keys, S3_PREFIX: '../' })).toMatch(/S3_PREFIX/);
    // The secret is never repeated in the message.
    expect(problems({ S3_SECRET_ACCESS_KEY: 'very-secret-value' })).not.toContain('very-secret-value');
  });
});
