import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase } from './client.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'parley-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the embedded database is one process’s', () => {
  it('refuses to open a folder another live process holds, and takes over a lock left by a dead one', async () => {
    const dataDir = path.join(root, 'pglite');
    const lock = `${dataDir}.lock`;
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(lock, String(other.pid));
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DatabaseInUseError);
      expect(readFileSync(lock, 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill();
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // The holder is gone: its lock is stale.
    const database = await openDatabase({ kind: 'pglite', dataDir });
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(existsSync(lock)).toBe(false);
  });
});
