import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type Instance = { url: string; dataDir: string; process: ChildProcess; output: () => string };

/**
 * Parley as it runs in production, as separate server processes (`src/server.ts`) on one PostgreSQL database and
 * one Redis: what a load balancer in front of several instances sees. Each has its own data folder and port; they
 * share the database, Redis (under a key prefix of their own) and APP_SECRET.
 */
export async function startInstances(env: Record<string, string>) {
  const shared = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    SERVE_WEB: 'false',
    ARGON2_MEMORY_KIB: '1024',
    APP_SECRET: randomBytes(32).toString('base64url'),
    REDIS_PREFIX: `parley-test-${randomBytes(4).toString('hex')}:`,
    ...env,
  };
  const folders: string[] = [];
  const running: Instance[] = [];

  async function start(extra: Record<string, string> = {}): Promise<Instance> {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-instance-'));
    folders.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        ...shared,
        ...extra,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`instance exited (${child.exitCode}):\n${output}`);
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`instance did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const instance = { url, dataDir, process: child, output: () => output };
    running.push(instance);
    return instance;
  }

  /** Ends the process at once (SIGKILL): no shutdown, no settling, as a crash would. */
  function kill(instance: Instance) {
    const exited = new Promise((resolve) => instance.process.once('exit', resolve));
    instance.process.kill('SIGKILL');
    return exited;
  }

  async function stop() {
    await Promise.all(
      running.map((i) => (i.process.exitCode === null && i.process.signalCode === null ? kill(i) : Promise.resolve())),
    );
    await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
  }

  return { start, kill, stop };
}
