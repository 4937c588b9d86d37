// Shared helpers for the benchmarks: temp dirs, a real API server process on loopback, cleanup, stats, tables.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = 'apps/api/src/server.ts';
export const LOOPBACK = '127.0.0.1';

/** True when `moduleUrl` is the script node was started with (so each benchmark also runs alone). */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return !!entry && pathToFileURL(path.resolve(entry)).href === moduleUrl;
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: every child process and temp dir is registered, and released on normal end, failure, or Ctrl-C.

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const asyncCleanups = new Set<() => Promise<void>>();

export function makeTempDir(label: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `parley-bench-${label}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  tempDirs.delete(dir);
}

/** For resources that need async release (e.g. dropping a PostgreSQL database). Returns an unregister function. */
export function onCleanup(fn: () => Promise<void>): () => void {
  asyncCleanups.add(fn);
  return () => asyncCleanups.delete(fn);
}

function killAllSync() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Stops every server still running, runs the async cleanups, removes every temp dir. Safe to call twice. */
export async function cleanupAll(): Promise<void> {
  await Promise.allSettled([...children].map((c) => stopChild(c)));
  for (const fn of [...asyncCleanups]) {
    asyncCleanups.delete(fn);
    await fn().catch((error: unknown) => console.error(`cleanup failed: ${String(error)}`));
  }
  killAllSync();
}

let handlersInstalled = false;
export function installCleanupHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllSync);
  // `on`, not `once`: the listener stays, so a signal arriving during cleanup cannot kill the script with the
  // default action and leave servers or temp dirs behind; a second signal forces the exit (children SIGKILLed).
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        killAllSync();
        process.exit(130);
      }
      stopping = true;
      console.error(`\n${signal}: stopping servers and removing temp dirs…`);
      const hardExit = setTimeout(() => process.exit(130), 20_000);
      hardExit.unref();
      void cleanupAll().finally(() => process.exit(130));
    });
  }
}

/** Runs a benchmark as a script: cleanup on every path, non-zero exit on failure. */
export async function runAsScript(main: () => Promise<unknown>): Promise<void> {
  installCleanupHandlers();
  try {
    await main();
  } catch (error) {
    console.error(`\nBenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    await cleanupAll();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The API server as a real process.

/** Every variable the API reads: never inherited from the caller's shell, so runs are reproducible. */
const SERVER_ENV_KEYS = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'PUBLIC_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_JWKS_URL',
  'TRUST_PROXY',
  'CORS_ORIGINS',
  'BODY_LIMIT_BYTES',
  'LOG_LEVEL',
  'WEB_DIST',
  'SESSION_TTL_DAYS',
  'LOGIN_MAX_FAILURES',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_PER_IP',
  'RATE_LIMIT_PER_EMAIL',
  'AI_RATE_PER_USER',
  'AI_RATE_PER_IP',
  'REQUEST_TIMEOUT_SECONDS',
  'ARGON2_MEMORY_KIB',
  'SERVE_WEB',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export type ServerOptions = {
  dataDir: string;
  port: number;
  databaseUrl?: string;
  nodeEnv?: 'production' | 'development';
  extraEnv?: Record<string, string>;
  /** Preload bench/parent-watchdog.mjs: the server stops itself if this script dies without stopping it. */
  watchdog?: boolean;
  /** Another copy of the repository to run the server of (a baseline beside the working tree); repoRoot by default. */
  root?: string;
  /** More options for the server's Node, after those `npm start` gives (a later V8 flag overrides an earlier one). */
  nodeArgs?: string[];
};

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  /** Last few KB of stdout+stderr, for error messages. */
  output: () => string;
  stop: () => Promise<void>;
};

export function startServer(options: ServerOptions): ServerProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of SERVER_ENV_KEYS) delete env[key];
  Object.assign(env, {
    NODE_ENV: options.nodeEnv ?? 'production',
    HOST: LOOPBACK,
    PORT: String(options.port),
    PUBLIC_URL: `http://${LOOPBACK}:${options.port}`,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_IP: '100000',
    AI_RATE_PER_USER: '1000000',
    AI_RATE_PER_IP: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.extraEnv,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  const spawnedAt = performance.now();
  const args = [
    // As `npm start` runs the server (apps/api/package.json).
    '--max-semi-space-size=64',
    '--no-allocation-site-pretenuring',
    // BENCH_SERVER_ARGS: more options for the server's Node, before the script (V8 flags such as --trace-gc), split on
    // spaces.
    ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(options.nodeArgs ?? []),
    // BENCH_CPU_PROF=<folder>: each server writes a CPU profile there when it stops (open it in Chrome's DevTools).
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    '--import',
    'tsx',
    ...(options.watchdog ? ['--import', './bench/parent-watchdog.mjs'] : []),
    SERVER_ENTRY,
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.root ?? repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // BENCH_SERVER_OUT=<file>: each server's whole output is also appended there (with V8's `--trace-gc` in
  // BENCH_SERVER_ARGS, say).
  if (process.env.BENCH_SERVER_OUT) {
    const out = createWriteStream(process.env.BENCH_SERVER_OUT, { flags: 'a' });
    out.on('error', (error) => console.error(`BENCH_SERVER_OUT: ${error.message}`));
    // Both streams write into the file; it is closed once the process and both streams have ended.
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    child.once('close', () => out.end());
  }
  child.once('exit', () => children.delete(child));
  return {
    child,
    baseUrl: `http://${LOOPBACK}:${options.port}`,
    spawnedAt,
    output: () => output,
    stop: () => stopChild(child),
  };
}

/** Keeps a child process the benchmark started itself with the servers: stopped by the cleanup, at the latest at exit. */
export function keepChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** The floor under every authenticated request (bench/floor-server.ts), running: see startFloor. */
export type FloorProcess = { child: ChildProcess; url: string; stop: () => Promise<void> };

/**
 * Starts the floor (bench/floor-server.ts: bare Fastify + pg) on `databaseUrl`, on a free port, with the parent
 * watchdog preloaded and kept with the servers (stopped by the cleanup). Resolves once it answers (401 without a
 * session is an answer). `nodeArgs` go before its script (`--trace-gc-nvp`, say); `onStdout` gets its output.
 */
export async function startFloor(
  databaseUrl: string,
  { nodeArgs = [], onStdout }: { nodeArgs?: string[]; onStdout?: (chunk: Buffer) => void } = {},
): Promise<FloorProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', '--import', './bench/parent-watchdog.mjs', 'bench/floor-server.ts'],
    {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
      stdio: ['ignore', onStdout ? 'pipe' : 'ignore', 'pipe'],
    },
  );
  keepChild(child);
  if (onStdout) child.stdout?.on('data', onStdout);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-4000)));
  const url = `http://${LOOPBACK}:${port}/api/user/profile`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the floor server exited (${child.exitCode}):\n${errors}`);
    if (
      await getStatus(url).then(
        () => true,
        () => false,
      )
    )
      break;
    if (i > 100) {
      await stopChild(child);
      throw new Error(`the floor server did not start:\n${errors}`);
    }
    await sleep(100);
  }
  return { child, url, stop: () => stopChild(child) };
}

/** SIGTERM (the server closes the database cleanly), SIGKILL after 15 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      return resolve();
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A helper process of a benchmark (a fake provider, run in its own event loop as a real one would be): `script` run
 * again with `args` (e.g. `--fake-child`), the parent watchdog preloaded, an IPC channel. Resolves once the child
 * sends `{ ready: … }`, with that value. Kept with the servers: stopped by `stop` (`stopChild`), by the benchmark's
 * cleanup, or at the latest when this process exits.
 */
export async function startHelperChild<Ready>(
  script: string,
  args: string[],
  { what, env = process.env }: { what: string; env?: NodeJS.ProcessEnv },
): Promise<{ child: ChildProcess; ready: Ready; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './bench/parent-watchdog.mjs', script, ...args],
    {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 30 s:\n${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}):\n${output}`)));
    child.on('message', (message: { ready?: Ready }) => {
      if (message.ready === undefined) return;
      clearTimeout(timer);
      resolve(message.ready);
    });
  });
  return { child, ready, stop: () => stopChild(child) };
}

/** One GET with its own socket (no keep-alive), resolved with the status code, rejected on network error. */
export function getStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', reject);
  });
}

/**
 * Polls `GET /api/health` until it answers 200. Bounded by `timeoutMs` and by the server exiting.
 * Resolves with performance.now() at the moment the first 200 arrived.
 */
export async function waitForHealth(
  server: ServerProcess,
  { timeoutMs = 60_000, intervalMs = 5 } = {},
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 10;
  for (let attempt = 0; attempt < maxAttempts && performance.now() < deadline; attempt++) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(
        `server exited (code ${server.child.exitCode ?? server.child.signalCode}) before answering:\n${server.output()}`,
      );
    }
    try {
      const status = await getStatus(`${server.baseUrl}/api/health`, 2000);
      if (status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`server did not answer GET /api/health with 200 within ${timeoutMs} ms:\n${server.output()}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers and tables.

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** A plain-text table; numbers right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map(
    (_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || /^[\d.,]+(\s?\w+)?$/.test(String(r[i]))),
  );
  const line = (r: string[]) =>
    '| ' + r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (numeric[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(headers), rule, ...cells.slice(1).map(line)].join('\n');
}

/** 1-minute load average / cores: other work on the machine skews every figure, so it is printed with them. */
export function loadSummary(): string {
  const [one, five] = os.loadavg();
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) on ${os.cpus().length} cores`;
}

export function machineSummary(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Reads `--name value` / `--name=value` from argv, else the environment variable, else the default. */
export function numberOption(name: string, envName: string, fallback: number): number {
  const argv = process.argv.slice(2);
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${name}`) raw = argv[i + 1];
    else if (arg.startsWith(`--${name}=`)) raw = arg.slice(name.length + 3);
  }
  raw ??= process.env[envName];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

// ---------------------------------------------------------------------------------------------------------------
// Process figures from /proc.

/** The kernel's clock ticks per second, the unit of /proc's CPU times. */
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Resident memory of a process in KiB. */
export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
}

/**
 * Minor page faults of process `pid` so far: each a page of memory touched for the first time, or again after it was
 * given back (slow on some virtual machines: a 5 MB buffer filled in 20 ms on one).
 */
export function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** CPU time (user + system, all threads) of a process in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}
