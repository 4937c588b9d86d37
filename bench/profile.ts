// Throughput and latency of an authenticated `GET /api/user/profile`, on PGlite and on PostgreSQL.
// A real server process on 127.0.0.1 in a temp DATA_DIR; a user is registered, verified through the .eml
// the file mailer writes, and signed in; then autocannon: a warm-up, then the measured run.
// On PostgreSQL the floor (bench/floor-server.ts: bare Fastify + pg, one prepared lookup of the hashed token joined to
// its user, JSON out) is measured the same way in the same run, on the same database and token, and the ratio printed.
//
//   node --import tsx bench/profile.ts [--duration 10] [--connections 20] [--warmup 3] [--rounds 3]
//   BENCH_PG_ADMIN_URL=postgres://user@127.0.0.1:5432/test   (default: tries users postgres, then root)
//   BENCH_SKIP_POSTGRES=1                                     (PGlite only)
//   BENCH_SKIP_PGLITE=1                                       (PostgreSQL and the floor only)
import autocannon from 'autocannon';
import { createBenchDatabase, signIn } from './accounts.js';
import { readdirSync, readFileSync } from 'node:fs';
import {
  cpuMs,
  freePort,
  isMain,
  loadSummary,
  makeTempDir,
  numberOption,
  removeTempDir,
  runAsScript,
  startFloor,
  startServer,
  table,
  waitForHealth,
  type FloorProcess,
} from './lib.js';

export type ProfileResult = {
  database: 'PGlite' | 'PostgreSQL' | 'floor: Fastify + pg';
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time per answered request, in µs, of the server's process and of PostgreSQL's (all its processes). */
  serverCpu?: number;
  postgresCpu?: number;
  skipped?: string;
};

type Options = { duration: number; connections: number; warmup: number; rounds: number };

const USER = { email: 'bench@example.com', password: 'bench-password-123', name: 'Bench' };

function autocannonRun(url: string, token: string, connections: number, duration: number) {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** A process's CPU time in ms (lib.ts: cpuMs), or 0 when it is gone (a backend that exited meanwhile). */
function cpuMsOrNone(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}

/** The processes of the local PostgreSQL server (its backends included), by name; none when it is not local. */
function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/** CPU used by a server and by PostgreSQL between start() and the function it returns (per process, so that a
 * backend that exits meanwhile takes away only what it used since the start, not what it used before it). */
function cpuMeter(serverPid: number | undefined) {
  const pg0 = new Map(postgresPids().map((pid) => [pid, cpuMsOrNone(pid)]));
  const server0 = serverPid ? cpuMs(serverPid) : 0;
  return () => {
    let postgres = 0;
    for (const pid of postgresPids()) {
      const now = cpuMsOrNone(pid);
      if (now) postgres += now - (pg0.get(pid) ?? 0);
    }
    return { server: (serverPid ? cpuMs(serverPid) : 0) - server0, postgres };
  };
}

async function measureUrl(
  database: ProfileResult['database'],
  url: string,
  token: string,
  options: Options,
  serverPid?: number,
): Promise<ProfileResult> {
  process.stdout.write(`  ${database}: warm-up ${options.warmup} s… `);
  await autocannonRun(url, token, options.connections, options.warmup);
  process.stdout.write(`measuring ${options.duration} s with ${options.connections} connections… `);
  const used = cpuMeter(serverPid);
  const result = await autocannonRun(url, token, options.connections, options.duration);
  const cpu = used();
  console.log('done');
  const answered = result.requests.total || 1;
  return {
    ...(serverPid ? { serverCpu: (cpu.server * 1000) / answered } : {}),
    ...(database !== 'PGlite' && cpu.postgres ? { postgresCpu: (cpu.postgres * 1000) / answered } : {}),
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
}

/** The median of some numbers (the middle one, or the mean of the two middle ones). */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The run of a round with the median throughput (the figures printed for that server). */
const medianRun = (runs: ProfileResult[]) => {
  const target = median(runs.map((r) => r.requestsPerSecond));
  return runs.reduce((best, r) =>
    Math.abs(r.requestsPerSecond - target) < Math.abs(best.requestsPerSecond - target) ? r : best,
  );
};

async function measure(
  database: 'PGlite' | 'PostgreSQL',
  options: Options,
  databaseUrl?: string,
): Promise<{ results: ProfileResult[]; ratios: { throughput: number; p99: number }[] }> {
  const dataDir = makeTempDir(`profile-${database.toLowerCase()}`);
  const server = startServer({
    dataDir,
    port: await freePort(),
    watchdog: true,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  let floor: FloorProcess | null = null;
  try {
    await waitForHealth(server);
    const token = await signIn(server, dataDir, USER);
    const parleyUrl = `${server.baseUrl}/api/user/profile`;
    if (!databaseUrl)
      return { results: [await measureUrl(database, parleyUrl, token, options, server.child.pid)], ratios: [] };

    floor = await startFloor(databaseUrl);
    const floorUrl = floor.url;
    // Rounds, each order in turn, so that a change of the machine's load during the run weighs on both alike.
    const parley: ProfileResult[] = [];
    const bare: ProfileResult[] = [];
    const ratios: { throughput: number; p99: number }[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const pair: ProfileResult[] = [];
      for (const which of round % 2 ? ['floor', 'parley'] : ['parley', 'floor']) {
        pair.push(
          which === 'parley'
            ? await measureUrl(database, parleyUrl, token, options, server.child.pid)
            : await measureUrl('floor: Fastify + pg', floorUrl, token, options, floor!.child.pid),
        );
      }
      const [p, f] = round % 2 ? [pair[1]!, pair[0]!] : [pair[0]!, pair[1]!];
      parley.push(p);
      bare.push(f);
      ratios.push({ throughput: p.requestsPerSecond / f.requestsPerSecond, p99: p.p99 / f.p99 });
      if (server.child.exitCode !== null) throw new Error(`server exited during the run:\n${server.output()}`);
    }
    return { results: [medianRun(parley), medianRun(bare)], ratios };
  } finally {
    await floor?.stop();
    await server.stop();
    removeTempDir(dataDir);
  }
}

export async function runProfile(overrides: Partial<Options> = {}): Promise<ProfileResult[]> {
  const options: Options = {
    duration: overrides.duration ?? numberOption('duration', 'BENCH_DURATION', 10),
    connections: overrides.connections ?? numberOption('connections', 'BENCH_CONNECTIONS', 20),
    warmup: overrides.warmup ?? numberOption('warmup', 'BENCH_WARMUP', 3),
    rounds: overrides.rounds ?? numberOption('rounds', 'BENCH_ROUNDS', 3),
  };
  console.log(
    `\n== GET /api/user/profile (authenticated), autocannon ${options.connections} connections, ${options.duration} s after a ${options.warmup} s warm-up ==`,
  );
  console.log(`  before: ${loadSummary()}`);
  const results: ProfileResult[] = [];
  if (process.env.BENCH_SKIP_PGLITE) console.log('  PGlite: skipped (BENCH_SKIP_PGLITE is set)');
  else results.push(...(await measure('PGlite', options)).results);
  let ratios: { throughput: number; p99: number }[] = [];

  if (process.env.BENCH_SKIP_POSTGRES) {
    results.push(skipped('BENCH_SKIP_POSTGRES is set'));
  } else {
    const created = await createBenchDatabase('profile');
    if ('error' in created) {
      console.log(`  PostgreSQL: skipped, no server reachable (${created.error})`);
      results.push(skipped('no PostgreSQL reachable'));
    } else {
      try {
        const measured = await measure('PostgreSQL', options, created.url);
        results.push(...measured.results);
        ratios = measured.ratios;
      } finally {
        await created.drop();
      }
    }
  }

  console.log();
  console.log(
    table(
      [
        'database',
        'req/s (mean)',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'requests',
        'non-2xx',
        'errors',
        'server CPU µs/req',
        'PostgreSQL CPU µs/req',
      ],
      results.map((r) =>
        r.skipped
          ? [r.database, `skipped: ${r.skipped}`, '', '', '', '', '', '', '', '']
          : [
              r.database,
              Math.round(r.requestsPerSecond),
              r.p50,
              r.p90,
              r.p99,
              r.total,
              r.non2xx,
              r.errors + r.timeouts,
              r.serverCpu === undefined ? '' : Math.round(r.serverCpu),
              r.postgresCpu === undefined
                ? r.database === 'PGlite'
                  ? 'in the server'
                  : ''
                : Math.round(r.postgresCpu),
            ],
      ),
    ),
  );
  if (ratios.length) {
    const rounds = ratios.map((r) => `${Math.round(r.throughput * 100)} %`).join(', ');
    const throughput = median(ratios.map((r) => r.throughput));
    const p99 = median(ratios.map((r) => r.p99));
    console.log(
      `  Parley keeps ${Math.round(throughput * 100)} % of the floor's throughput (median of ${ratios.length} rounds: ` +
        `${rounds}; target ≥ 65 %); its p99 is ${p99.toFixed(2)}× the floor's (median; target ≤ 2×).`,
    );
    console.log('  (table: the round of median throughput for each server)');
  }
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
