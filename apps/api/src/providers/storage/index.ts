import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where file bytes live: a local folder by default, an S3-compatible store (./s3.ts) when configured. */
export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Throws `missingFileError()` (code ENOENT) when nothing is stored under `key`. */
  get(key: string): Promise<Buffer>;
  /** Nothing stored under `key` is not an error. */
  remove(key: string): Promise<void>;
  /** Every stored key with when it was written, in no particular order (for the sweep of orphaned files). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
}

/** Keys are `<owner>/<id>`-like paths of letters, digits and dashes: no dots, so never `..`, never absolute. */
export const SAFE_KEY = /^[A-Za-z0-9-]+(\/[A-Za-z0-9-]+)*$/;

/** Refuses a key outside SAFE_KEY. The key itself stays out of the message (it names a person). */
export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error('unsafe storage key');
  return key;
}

/** What `get` throws for a key that holds nothing, whatever the storage: a Node ENOENT error. */
export function missingFileError(): NodeJS.ErrnoException {
  return Object.assign(new Error('no stored file under this key'), { code: 'ENOENT' });
}

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => path.join(root, checkKey(key));
  return {
    async put(key, bytes) {
      const file = resolve(key);
      // Written first, its folder made only when missing (a person's first file): most writes go to a folder that
      // exists, and a mkdir on every write is one more trip through libuv's threadpool, which image work shares.
      try {
        await writeFile(file, bytes, { mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, bytes, { mode: 0o600 });
      }
    },
    async get(key) {
      try {
        return await readFile(resolve(key));
      } catch (error) {
        // Node's own message carries the path, and so the key.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missingFileError();
        throw error;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    async *list() {
      let entries;
      try {
        entries = await readdir(root, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const key = path.relative(root, file).split(path.sep).join('/');
        if (!SAFE_KEY.test(key)) continue;
        const info = await stat(file).catch(() => null);
        if (info) yield { key, modifiedAt: info.mtime };
      }
    },
  };
}
