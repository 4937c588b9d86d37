// Time from spawning the production start (`node --import tsx apps/api/src/server.ts`, NODE_ENV=production,
// PGlite) to the first `GET /api/health` answered 200, with a fresh DATA_DIR (database created and migrated)
// and with an existing one (already migrated). One discarded warm-up start first (OS file cache, tsx cache).
//
//   node --import tsx bench/startup.ts [--runs 5]
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  freePort,
  isMain,
  loadSummary,
  makeTempDir,
  median,
  numberOption,
  removeTempDir,
  repoRoot,
  runAsScript,
  startServer,
  table,
  waitForHealth,
} from './lib.js';

export type StartupResult = { scenario: string; runsMs: number[]; medianMs: number; minMs: number; maxMs: number };

/** One start: spawn → first 200 on /api/health → SIGTERM and wait for exit. */
async function timeOneStart(dataDir: string): Promise<number> {
  const server = startServer({ dataDir, port: await freePort(), nodeEnv: 'production' });
  try {
    const answeredAt = await waitForHealth(server, { timeoutMs: 60_000, intervalMs: 5 });
    return answeredAt - server.spawnedAt;
  } finally {
    await server.stop();
  }
}

export async function runStartup(overrides: { runs?: number } = {}): Promise<StartupResult[]> {
  const runs = Math.min(overrides.runs ?? numberOption('runs', 'BENCH_STARTUP_RUNS', 5), 50);
  const webBuilt = existsSync(path.join(repoRoot, 'apps/web/dist/index.html'));
  console.log(`\n== Production start → first GET /api/health answered (PGlite, ${runs} runs each, median) ==`);
  console.log(
    `  web app ${webBuilt ? 'built: the server also serves apps/web/dist' : 'not built: the server starts without static web serving'}`,
  );

  console.log(`  before: ${loadSummary()}`);
  // Warm-up, not counted; its data dir becomes the "existing" one.
  const existingDir = makeTempDir('startup-existing');
  try {
    process.stdout.write('  warm-up start… ');
    const warm = await timeOneStart(existingDir);
    console.log(`${Math.round(warm)} ms (not counted)`);

    const fresh: number[] = [];
    for (let i = 0; i < runs; i++) {
      const dir = makeTempDir('startup-fresh');
      try {
        fresh.push(await timeOneStart(dir));
      } finally {
        removeTempDir(dir);
      }
      process.stdout.write(`  fresh DATA_DIR run ${i + 1}/${runs}: ${Math.round(fresh[i]!)} ms\n`);
    }
    const existing: number[] = [];
    for (let i = 0; i < runs; i++) {
      existing.push(await timeOneStart(existingDir));
      process.stdout.write(`  existing DATA_DIR run ${i + 1}/${runs}: ${Math.round(existing[i]!)} ms\n`);
    }

    const results = [summary('fresh DATA_DIR (create + migrate)', fresh), summary('existing DATA_DIR', existing)];
    console.log();
    console.log(
      table(
        ['scenario', 'median ms', 'min ms', 'max ms', 'runs'],
        results.map((r) => [
          r.scenario,
          Math.round(r.medianMs),
          Math.round(r.minMs),
          Math.round(r.maxMs),
          r.runsMs.length,
        ]),
      ),
    );
    return results;
  } finally {
    removeTempDir(existingDir);
  }
}

function summary(scenario: string, runsMs: number[]): StartupResult {
  return { scenario, runsMs, medianMs: median(runsMs), minMs: Math.min(...runsMs), maxMs: Math.max(...runsMs) };
}

if (isMain(import.meta.url)) await runAsScript(() => runStartup());
