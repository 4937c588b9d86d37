import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * Reads a zip the way unzip tools do: from the end-of-central-directory record, through the central directory, to
 * each local header; checks every entry's sizes and CRC-32.
 */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(-1);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(localAt)).toBe(0x04034b50);
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    expect([0, 8]).toContain(method);
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    files.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

const manifest = (version: string, host = 'http://parley.test/*') =>
  JSON.stringify({ manifest_version: 3, name: 'Parley', version, host_permissions: [host] });

describe('the extension download', () => {
  let dist: string;
  let t: TestApp;
  const logs: string[] = [];
  const script = `console.log(${JSON.stringify('a line of the background script. '.repeat(400))});\n`;
  const icon = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 97) % 256));

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'parley-extension-'));
    await mkdir(path.join(dist, 'chunks'));
    await mkdir(path.join(dist, 'icons'));
    await writeFile(path.join(dist, 'manifest.json'), manifest('1.2.3'));
    await writeFile(path.join(dist, 'background.js'), script);
    await writeFile(path.join(dist, 'chunks', 'popup-3f2a.js'), 'export const x = 1;\n');
    await writeFile(path.join(dist, 'icons', '16.png'), icon);
    await writeFile(path.join(dist, 'extensionIndex.html'), '<!doctype html><title>Parley</title>');
    t = await createTestApp({ EXTENSION_DIST: dist, EXTENSION_STORE_URL: 'https://store.example/parley' }, { logs });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('says what it offers, without a session', async () => {
    const info = await t.json('GET', '/api/extension');
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({
      available: true,
      version: '1.2.3',
      fileName: 'parley-extension-1.2.3.zip',
      storeUrl: 'https://store.example/parley',
    });
    const download = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    expect(info.body.data.size).toBe(download.rawPayload.length);
  });

  it('sends the built folder as a zip that unpacks to the same files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="parley-extension-1.2.3.zip"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const files = readZip(res.rawPayload);
    // Files sit at the root of the archive: the unzipped folder is the one "Load unpacked" wants.
    expect([...files.keys()]).toEqual([
      'background.js',
      'chunks/popup-3f2a.js',
      'extensionIndex.html',
      'icons/16.png',
      'manifest.json',
    ]);
    expect(JSON.parse(files.get('manifest.json')!.toString('utf8'))).toMatchObject({ version: '1.2.3' });
    expect(files.get('background.js')!.toString('utf8')).toBe(script);
    expect(files.get('icons/16.png')!.equals(icon)).toBe(true);
    // Text is compressed.
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
  });

  it.skipIf(!existsSync('/usr/bin/unzip'))('passes unzip’s own integrity test', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    const file = path.join(dist, '..', `parley-test-${process.pid}.zip`);
    await writeFile(file, res.rawPayload);
    try {
      const { stdout } = await promisify(execFile)('/usr/bin/unzip', ['-t', file]);
      expect(stdout).toMatch(/No errors detected/);
    } finally {
      await rm(file, { force: true });
    }
  });

  it('answers a repeated download with 304 when nothing changed', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/extension/download',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('offers a new build as soon as it is written', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    await writeFile(path.join(dist, 'manifest.json'), manifest('1.2.4'));
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(dist, 'manifest.json'), later, later);
    const info = await t.json('GET', '/api/extension');
    expect(info.body.data).toMatchObject({ version: '1.2.4', fileName: 'parley-extension-1.2.4.zip' });
    const after = await t.app.inject({ method: 'GET', url: '/api/extension/download' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(readZip(after.rawPayload).get('manifest.json')!.toString('utf8')).version).toBe('1.2.4');
  });

  it('warns in the log when the extension was built for another server', async () => {
    await writeFile(path.join(dist, 'manifest.json'), manifest('1.2.5', 'http://localhost:3000/*'));
    const later = new Date(Date.now() + 10_000);
    await utimes(path.join(dist, 'manifest.json'), later, later);
    await t.json('GET', '/api/extension');
    expect(logs.join('\n')).toContain('rebuild it with PARLEY_API_URL=http://parley.test');
  });
});

describe('without a built extension', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'parley-no-extension-'));
    t = await createTestApp({ EXTENSION_DIST: path.join(dist, 'chrome-mv3') });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('says none is available and answers the download with a localized 404', async () => {
    const info = await t.json('GET', '/api/extension');
    expect(info.body.data).toEqual({ available: false, version: null, fileName: null, size: null, storeUrl: null });
    const res = await t.json('GET', '/api/extension/download', { lang: 'es' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'EXTENSION_NOT_BUILT' });
    expect(res.body.message).toContain('npm run build');
    expect(res.body.message).toMatch(/extensión/);
  });

  it('does not offer a folder whose manifest is not an extension’s', async () => {
    await mkdir(path.join(dist, 'chrome-mv3'));
    await writeFile(path.join(dist, 'chrome-mv3', 'manifest.json'), '{"name":"not an extension"}');
    expect((await t.json('GET', '/api/extension')).body.data.available).toBe(false);
    await writeFile(path.join(dist, 'chrome-mv3', 'manifest.json'), '{ half a file');
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(dist, 'chrome-mv3', 'manifest.json'), later, later);
    expect((await t.json('GET', '/api/extension')).body.data.available).toBe(false);
    expect((await t.json('GET', '/api/extension/download')).status).toBe(404);
  });
});

describe('EXTENSION_STORE_URL', () => {
  it('must be a web address', () => {
    expect(loadConfig({ EXTENSION_STORE_URL: 'https://chromewebstore.google.com/detail/x' }).extension.storeUrl).toBe(
      'https://chromewebstore.google.com/detail/x',
    );
    for (const bad of ['javascript:alert(1)', 'not a url', 'ftp://store.example/x']) {
      expect(() => loadConfig({ EXTENSION_STORE_URL: bad })).toThrow(ConfigError);
    }
  });
});
