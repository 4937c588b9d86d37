// Garbage collection under the authenticated `GET /api/user/profile` (PostgreSQL): what V8's young-generation
// collections (scavenges) cost Parley's server, beside the floor (bench/floor-server.ts: bare Fastify + pg, V8's
// defaults), in one run, on the same database (each Parley server signs in a new person of its own; the floor is asked
// with the first one's session). Each server runs with `--trace-gc-nvp`; for the seconds of each measured run this
// prints, per server: bytes the young-generation collections promoted to the old generation per request (objects that
// outlived two of them: they pay twice to be copied and are only freed by a full collection), young collections per
// second and their pauses, full collections, server CPU per request and throughput.
//
// Parley is run as `npm start` runs it and, beside it, with `--variant "<node options>"` (e.g.
// `--allocation-site-pretenuring`, which turns back on what the start command turns off): see
// docs/decisions/043-the-server-runs-without-allocation-site-pretenuring.md.
//
//   node --import tsx bench/gc.ts [--duration 8] [--warmup 2] [--rounds 3] [--connections 20]
//                                 [--variant "--allocation-site-pretenuring" | --variant=…] [--no-variant]
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { createBenchDatabase, signIn } from './accounts.js';
import {
  cpuMs,
  freePort,
  isMain,
  loadSummary,
  makeTempDir,
  median,
  numberOption,
  removeTempDir,
  runAsScript,
  sleep,
  startFloor,
  startServer,
  stopChild,
  table,
  waitForHealth,
  type ServerProcess,
} from './lib.js';

type Options = { duration: number; warmup: number; rounds: number; connections: number };

/**
 * One `--trace-gc-nvp` line, reduced to what is printed. `young`: a scavenge (`gc=s`) or a minor mark-compact
 * (`gc=mmc`, with `--minor-mc`); `full`: a mark-compact of the whole heap (`gc=mc`).
 */
type GcEvent = { kind: 'young' | 'full' | 'other'; pause: number; promoted: number };

type Target = { label: string; url: string; child: ChildProcess; events: GcEvent[] };

type Sample = {
  requestsPerSecond: number;
  p99: number;
  requests: number;
  promotedPerRequest: number;
  scavengesPerSecond: number;
  scavengePauseMean: number;
  scavengePauseMax: number;
  fullCollections: number;
  fullPauseMs: number;
  gcShare: number;
  cpuPerRequest: number;
};

const USER = { email: 'bench-gc@example.com', password: 'bench-password-123', name: 'Bench' };

/** A reader of V8's `--trace-gc-nvp` output, chunk by chunk, into `events` (see GcEvent). */
function gcReader(events: GcEvent[]) {
  let rest = '';
  return (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = / gc=(\w+) /.exec(line)?.[1];
      if (!gc) continue;
      const pause = Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
      // ` promoted=` (bytes), not `nodes_promoted=` (a count of handles), which comes later in the line.
      const promoted = Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      events.push({ kind: gc === 's' || gc === 'mmc' ? 'young' : gc === 'mc' ? 'full' : 'other', pause, promoted });
    }
  };
}

async function measureTarget(target: Target, token: string, options: Options): Promise<Sample> {
  const run = (duration: number) =>
    autocannon({
      url: target.url,
      connections: options.connections,
      duration,
      timeout: 10,
      headers: { authorization: `Bearer ${token}` },
    });
  process.stdout.write(`  ${target.label}: warm-up ${options.warmup} s… `);
  await run(options.warmup);
  process.stdout.write(`measuring ${options.duration} s… `);
  const from = target.events.length;
  const cpu0 = cpuMs(target.child.pid!);
  const result = await run(options.duration);
  const cpu = cpuMs(target.child.pid!) - cpu0;
  await sleep(50); // the last lines of the run
  const events = target.events.slice(from);
  console.log('done');
  const failed = result.non2xx + result.errors + result.timeouts;
  if (target.child.exitCode !== null || target.child.signalCode !== null)
    throw new Error(`${target.label} stopped during the run`);
  if (failed)
    throw new Error(
      `${target.label}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} time-outs`,
    );
  const requests = result.requests.total || 1;
  const scavenges = events.filter((e) => e.kind === 'young');
  const full = events.filter((e) => e.kind === 'full');
  const pauses = scavenges.map((e) => e.pause);
  const allPauses = events.reduce((sum, e) => sum + e.pause, 0);
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    requests,
    // What young collections promoted: a full collection moves every live young object, however young.
    promotedPerRequest: scavenges.reduce((sum, e) => sum + e.promoted, 0) / requests,
    scavengesPerSecond: scavenges.length / options.duration,
    scavengePauseMean: pauses.length ? pauses.reduce((a, b) => a + b, 0) / pauses.length : 0,
    scavengePauseMax: pauses.length ? Math.max(...pauses) : 0,
    fullCollections: full.length,
    fullPauseMs: full.reduce((sum, e) => sum + e.pause, 0),
    gcShare: allPauses / (options.duration * 1000),
    cpuPerRequest: (cpu * 1000) / requests,
  };
}

export async function runGc(overrides: Partial<Options> = {}) {
  const options: Options = {
    duration: overrides.duration ?? numberOption('duration', 'BENCH_DURATION', 8),
    warmup: overrides.warmup ?? numberOption('warmup', 'BENCH_WARMUP', 2),
    rounds: overrides.rounds ?? numberOption('rounds', 'BENCH_ROUNDS', 3),
    connections: overrides.connections ?? numberOption('connections', 'BENCH_CONNECTIONS', 20),
  };
  const args = process.argv.slice(2);
  const variantAt = args.indexOf('--variant');
  const variantText =
    args.find((a) => a.startsWith('--variant='))?.slice('--variant='.length) ??
    (variantAt >= 0 ? args[variantAt + 1] : undefined) ??
    '--allocation-site-pretenuring';
  const variant = variantText.split(' ').filter(Boolean);
  const withVariant = !args.some((a) => a === '--no-variant' || a.startsWith('--no-variant='));
  if (withVariant && !variant.length) throw new Error('--variant: give the Node options of the variant');
  console.log(
    `\n== Garbage collection under GET /api/user/profile (PostgreSQL), ${options.connections} connections, ` +
      `${options.duration} s after ${options.warmup} s, ${options.rounds} rounds ==`,
  );
  console.log(`  before: ${loadSummary()}`);
  const created = await createBenchDatabase('gc');
  if ('error' in created) throw new Error(`no PostgreSQL reachable (needed for this benchmark): ${created.error}`);
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  try {
    const parley = async (label: string, nodeArgs: string[]) => {
      const dataDir = makeTempDir('gc');
      dirs.push(dataDir);
      const server = startServer({
        dataDir,
        port: await freePort(),
        watchdog: true,
        databaseUrl: created.url,
        nodeArgs: ['--trace-gc-nvp', ...nodeArgs],
      });
      children.push(server.child); // stopped in `finally` if the run fails before its round ends
      const target: Target = { label, url: `${server.baseUrl}/api/user/profile`, child: server.child, events: [] };
      server.child.stdout?.on('data', gcReader(target.events));
      await waitForHealth(server);
      return { server, dataDir, target };
    };
    const variants: [string, string[]][] = [['Parley (npm start)', []]];
    if (withVariant) variants.push([`Parley ${variant.join(' ')}`, variant]);

    const floorEvents: GcEvent[] = [];
    const floor = await startFloor(created.url, { nodeArgs: ['--trace-gc-nvp'], onStdout: gcReader(floorEvents) });
    children.push(floor.child);
    const floorTarget: Target = {
      label: 'floor: Fastify + pg',
      url: floor.url,
      child: floor.child,
      events: floorEvents,
    };

    // Each round starts its Parley servers afresh: what V8 decides early on (which allocations go straight to the old
    // generation, from what it has run so far) differs from one process to the next. Each server first does what a
    // running server has done, the same for all: a new person registers, verifies their address and signs in (the
    // floor is asked with the first one's session). The servers are measured in another order each round.
    const samples = new Map<string, Sample[]>([
      ...variants.map(([label]) => [label, []] as [string, Sample[]]),
      [floorTarget.label, []],
    ]);
    for (let round = 0; round < options.rounds; round++) {
      const started: { server: ServerProcess; target: Target; token: string }[] = [];
      for (const [label, args] of variants) {
        const one = await parley(label, args);
        const user = { ...USER, email: `bench-gc-${round}-${started.length}@example.com` };
        started.push({ ...one, token: await signIn(one.server, one.dataDir, user) });
      }
      const tokens = new Map<Target, string>(started.map((s) => [s.target, s.token]));
      tokens.set(floorTarget, started[0]!.token);
      const targets = [...started.map((s) => s.target), floorTarget];
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      console.log(`  round ${round + 1} of ${options.rounds}:`);
      for (const target of order)
        samples.get(target.label)!.push(await measureTarget(target, tokens.get(target)!, options));
      await Promise.all(started.map((s) => s.server.stop()));
    }
    const labels = [...samples.keys()];

    const mid = (label: string, pick: (s: Sample) => number) => median(samples.get(label)!.map(pick));
    console.log();
    console.log(
      table(
        [
          'server (median of rounds)',
          'req/s',
          'p99 ms',
          'promoted B/req',
          'scavenges/s',
          'scavenge pause mean ms',
          'max ms',
          'full GCs',
          'full GC ms',
          'time in GC pauses',
          'server CPU µs/req',
        ],
        labels.map((label) => [
          label,
          Math.round(mid(label, (s) => s.requestsPerSecond)),
          mid(label, (s) => s.p99),
          Math.round(mid(label, (s) => s.promotedPerRequest)),
          mid(label, (s) => s.scavengesPerSecond).toFixed(1),
          mid(label, (s) => s.scavengePauseMean).toFixed(2),
          mid(label, (s) => s.scavengePauseMax).toFixed(1),
          mid(label, (s) => s.fullCollections),
          mid(label, (s) => s.fullPauseMs).toFixed(1),
          `${(mid(label, (s) => s.gcShare) * 100).toFixed(1)} %`,
          Math.round(mid(label, (s) => s.cpuPerRequest)),
        ]),
      ),
    );
    for (const label of labels) {
      const each = samples.get(label)!;
      console.log(
        `  ${label}: promoted B/req by round ${each.map((s) => Math.round(s.promotedPerRequest)).join(', ')}; ` +
          `scavenge pause mean ${each.map((s) => s.scavengePauseMean.toFixed(1)).join(', ')} ms`,
      );
    }
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
    for (const dir of dirs) removeTempDir(dir);
    await created.drop();
  }
}

if (isMain(import.meta.url)) await runAsScript(() => runGc());
