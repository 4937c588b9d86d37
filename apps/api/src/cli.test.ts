import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run admin`: the operator's command line, run as they run it.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'cli.ts'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, NODE_ENV: 'test', ARGON2_MEMORY_KIB: '1024', ...env },
    timeout: 60_000,
  });

describe('npm run admin', () => {
  it('prints its help and succeeds when asked for it; an unknown command fails', () => {
    for (const ask of [[], ['help'], ['--help'], ['-h']]) {
      const run = cli(ask);
      expect(run.status, ask.join(' ')).toBe(0);
      expect(run.stdout).toContain('Parley administration');
    }
    expect(cli(['make-coffee']).status).toBe(1);
  });

  it('creates a site admin with the password from ADMIN_PASSWORD, never needing it on the command line', () => {
    const missing = cli(['create-admin', '--email', 'ops@example.com']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('ADMIN_PASSWORD');
    const made = cli(['create-admin', '--email', 'ops@example.com'], { ADMIN_PASSWORD: 'a long admin password' });
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout + made.stderr).not.toContain('a long admin password');
  });
});
