import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where attachment bytes live. Local folder by default; an S3-compatible store implements the same three calls. */
export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9-]+(\/[A-Za-z0-9-]+)*$/;

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes, { mode: 0o600 });
    },
    get: (key) => readFile(resolve(key)),
    remove: (key) => rm(resolve(key), { force: true }),
  };
}
