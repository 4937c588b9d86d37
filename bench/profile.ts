// Throughput and latency of an authenticated `GET /api/user/profile`, on PGlite and on PostgreSQL.
// A real server process on 127.0.0.1 in a temp DATA_DIR; a user is registered, verified through the .eml
// the file mailer writes, and signed in; then autocannon: a warm-up, then the measured run.
//
//   node --import tsx bench/profile.ts [--duration 10] [--connections 20] [--warmup 3]
//   BENCH_PG_ADMIN_URL=postgres://user@127.0.0.1:5432/test   (default: tries users postgres, then root)
//   BENCH_SKIP_POSTGRES=1                                     (PGlite only)
import autocannon from 'autocannon';
import { createBenchDatabase, signIn } from './accounts.js';
import {
  freePort,
  isMain,
  loadSummary,
  makeTempDir,
  numberOption,
  removeTempDir,
  runAsScript,
  startServer,
  table,
  waitForHealth,
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
    const token = await signIn(server, dataDir, USER);
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
    const created = await createBenchDatabase('profile');
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
