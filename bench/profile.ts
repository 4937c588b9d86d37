// Throughput and latency of an authenticated `GET /api/user/profile`, on PGlite and on PostgreSQL.
// A real server process on 127.0.0.1 in a temp DATA_DIR; a user is registered, verified through the .eml
// the file mailer writes, and signed in; then autocannon: a warm-up, then the measured run.
//
//   node --import tsx bench/profile.ts [--duration 10] [--connections 20] [--warmup 3]
//   BENCH_PG_ADMIN_URL=postgres://user@127.0.0.1:5432/test   (default: tries users postgres, then root)
//   BENCH_SKIP_POSTGRES=1                                     (PGlite only)
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  freePort,
  isMain,
  loadSummary,
  LOOPBACK,
  makeTempDir,
  numberOption,
  onCleanup,
  removeTempDir,
  runAsScript,
  sleep,
  startServer,
  table,
  waitForHealth,
  type ServerProcess,
} from './lib.js';

export type ProfileResult = {
  database: 'PGlite' | 'PostgreSQL';
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  skipped?: string;
};

type Options = { duration: number; connections: number; warmup: number };

const USER = { email: 'bench@example.com', password: 'bench-password-123', name: 'Bench' };

async function call(server: ServerProcess, method: string, urlPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { status: number; message: string; data: unknown };
}

/** Quoted-printable soft breaks and `=3D` would split or hide the token. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function verificationToken(mailDir: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
      const raw = decodeQuotedPrintable(await readFile(path.join(mailDir, file), 'utf8'));
      const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(raw);
      if (match) return match[1]!;
    }
    await sleep(100);
  }
  throw new Error(`no verification mail with a verify-email link under ${mailDir}`);
}

/** register → verify (link from the .eml) → login; returns the bearer token. */
async function signIn(server: ServerProcess, dataDir: string): Promise<string> {
  await call(server, 'POST', '/api/auth/register', USER);
  const token = await verificationToken(path.join(dataDir, 'mail'));
  await call(server, 'POST', `/api/auth/verify?token=${encodeURIComponent(token)}`);
  const login = await call(server, 'POST', '/api/auth/login', { email: USER.email, password: USER.password });
  const bearer = (login.data as { token?: unknown } | null)?.token;
  if (typeof bearer !== 'string')
    throw new Error(`login answered no data.token: ${JSON.stringify(login).slice(0, 300)}`);
  const profile = await call(server, 'GET', '/api/user/profile', undefined, bearer);
  if ((profile.data as { email?: string } | null)?.email !== USER.email)
    throw new Error('profile did not return the signed-in user');
  return bearer;
}

async function measure(
  database: ProfileResult['database'],
  options: Options,
  databaseUrl?: string,
): Promise<ProfileResult> {
  const dataDir = makeTempDir(`profile-${database.toLowerCase()}`);
  const server = startServer({
    dataDir,
    port: await freePort(),
    watchdog: true,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  try {
    await waitForHealth(server);
    const token = await signIn(server, dataDir);
    const run = (duration: number) =>
      autocannon({
        url: `${server.baseUrl}/api/user/profile`,
        connections: options.connections,
        duration,
        timeout: 10,
        headers: { authorization: `Bearer ${token}` },
      });
    process.stdout.write(`  ${database}: warm-up ${options.warmup} s… `);
    await run(options.warmup);
    process.stdout.write(`measuring ${options.duration} s with ${options.connections} connections… `);
    const result = await run(options.duration);
    console.log('done');
    if (server.child.exitCode !== null) throw new Error(`server exited during the run:\n${server.output()}`);
    return {
      database,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}

/** Finds an admin connection to the local PostgreSQL (trust auth), creates a fresh database, returns its URL. */
async function createBenchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | { error: string }> {
  const candidates = process.env.BENCH_PG_ADMIN_URL
    ? [process.env.BENCH_PG_ADMIN_URL]
    : [`postgres://postgres@${LOOPBACK}:5432/test`, `postgres://root@${LOOPBACK}:5432/test`];
  const problems: string[] = [];
  for (const adminUrl of candidates) {
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch (error) {
      problems.push(`${adminUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`);
      continue;
    }
    const name = `parley_bench_${process.pid}`;
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    let dropped = false;
    const drop = async () => {
      if (dropped) return;
      dropped = true;
      unregister();
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    };
    const unregister = onCleanup(drop);
    return { url: url.toString(), drop };
  }
  return { error: problems.join('; ') };
}

export async function runProfile(overrides: Partial<Options> = {}): Promise<ProfileResult[]> {
  const options: Options = {
    duration: overrides.duration ?? numberOption('duration', 'BENCH_DURATION', 10),
    connections: overrides.connections ?? numberOption('connections', 'BENCH_CONNECTIONS', 20),
    warmup: overrides.warmup ?? numberOption('warmup', 'BENCH_WARMUP', 3),
  };
  console.log(
    `\n== GET /api/user/profile (authenticated), autocannon ${options.connections} connections, ${options.duration} s after a ${options.warmup} s warm-up ==`,
  );
  console.log(`  before: ${loadSummary()}`);
  const results: ProfileResult[] = [];
  results.push(await measure('PGlite', options));

  if (process.env.BENCH_SKIP_POSTGRES) {
    results.push(skipped('BENCH_SKIP_POSTGRES is set'));
  } else {
    const created = await createBenchDatabase();
    if ('error' in created) {
      console.log(`  PostgreSQL: skipped, no server reachable (${created.error})`);
      results.push(skipped('no PostgreSQL reachable'));
    } else {
      try {
        results.push(await measure('PostgreSQL', options, created.url));
      } finally {
        await created.drop();
      }
    }
  }

  console.log();
  console.log(
    table(
      ['database', 'req/s (mean)', 'p50 ms', 'p90 ms', 'p99 ms', 'requests', 'non-2xx', 'errors'],
      results.map((r) =>
        r.skipped
          ? [r.database, `skipped: ${r.skipped}`, '', '', '', '', '', '']
          : [
              r.database,
              Math.round(r.requestsPerSecond),
              r.p50,
              r.p90,
              r.p99,
              r.total,
              r.non2xx,
              r.errors + r.timeouts,
            ],
      ),
    ),
  );
  const bad = results.filter((r) => !r.skipped && (r.non2xx || r.errors || r.timeouts));
  if (bad.length)
    console.log(`  WARNING: non-2xx answers or errors during the run on ${bad.map((r) => r.database).join(', ')}`);
  return results;
}

function skipped(reason: string): ProfileResult {
  return {
    database: 'PostgreSQL',
    requestsPerSecond: NaN,
    p50: NaN,
    p90: NaN,
    p99: NaN,
    total: 0,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    skipped: reason,
  };
}

if (isMain(import.meta.url)) await runAsScript(() => runProfile());
