// The whole suite, as `npm test` runs it: lint, types, unit and integration tests (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), a production build of the web app, then the browser tests in Debian's Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const only = process.argv.slice(2); // e.g. `npm test -- api web`
const wants = (step) => only.length === 0 || only.includes(step);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** The failed tests by name, repeated at the end: a log's last lines then say what failed. */
const failedTests = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((line) => line.trim()) ?? '';

function run(label, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failures.push(label);
    console.log(`✗ ${label} failed (${seconds}s)`);
    return false;
  }
  console.log(`✓ ${label} (${seconds}s)`);
  return true;
}

/**
 * Steps that each use one core (eslint, prettier), run at the same time; each one's output is printed whole when it
 * ends, so the two never interleave.
 */
async function runTogether(steps) {
  const started = Date.now();
  console.log(`\n▶ ${steps.map(([label]) => label).join(' and ')}`);
  await Promise.all(
    steps.map(
      ([label, command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          let ended = false;
          const done = (ok) => {
            if (ended) return;
            ended = true;
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            process.stdout.write(Buffer.concat(output));
            if (!ok) failures.push(label);
            console.log(ok ? `✓ ${label} (${seconds}s)` : `✗ ${label} failed (${seconds}s)`);
            resolve();
          };
          child.on('error', (error) => {
            output.push(Buffer.from(`${error}\n`));
            done(false);
          });
          child.on('close', (code) => done(code === 0));
        }),
    ),
  );
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const file = path.relative(root, suite.name);
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      failedTests.push(`${file} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    // A file that failed to load or whose hooks failed has no failed test of its own.
    if (failed.length === 0 && suite.status === 'failed') failedTests.push(`${file}: ${firstLine(suite.message)}`);
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const { stats } = report;
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
}

const vitest = (label, dir, file, env) => {
  run(
    label,
    'npx',
    [
      'vitest',
      'run',
      '--root',
      dir,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${path.join(results, file)}`,
    ],
    env,
  );
  countVitest(path.join(results, file));
};

/** Debian's Chromium for the browser tests, and libfaketime for the one that moves the server's clock. */
function ensureBrowserPackages() {
  const missing = [
    ['chromium', '/usr/bin/chromium'],
    ['faketime', '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1'],
  ].filter(([, file]) => !existsSync(file));
  if (missing.length === 0) return true;
  const names = missing.map(([name]) => name);
  console.log(`Installing Debian's ${names.join(' and ')} (apt-get install -y ${names.join(' ')})…`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (...args) =>
    spawnSync(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  apt('update', '-qq');
  apt('install', '-y', '-qq', ...names);
  return existsSync('/usr/bin/chromium');
}

if (wants('lint')) {
  await runTogether([
    ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
    ['format', 'npx', ['prettier', '--check', '.', '--log-level=warn']],
  ]);
}
if (wants('types')) run('typecheck', 'node', ['scripts/typecheck.mjs']);

if (wants('api')) {
  vitest('API on PGlite', 'apps/api', 'api-pglite.json', { PARLEY_TEST_DB: 'pglite' });
  if (process.env.TEST_DATABASE_URL) {
    vitest('API on PostgreSQL', 'apps/api', 'api-postgres.json', { PARLEY_TEST_DB: 'postgres' });
  } else {
    console.log('\n(API on PostgreSQL skipped: set TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)');
  }
}
if (wants('web')) {
  // apps/web's config also runs the ui and i18n packages' tests (they need its jsdom setup).
  vitest('web components', 'apps/web', 'web.json');
  vitest('contract', 'packages/contract', 'contract.json');
  vitest('extension', 'apps/extension', 'extension.json');
}

if (wants('e2e')) {
  if (!ensureBrowserPackages()) {
    failures.push('install chromium');
  } else if (run('build web app', 'npm', ['run', 'build', '-w', '@parley/web', '--silent'])) {
    run('browser tests (Chromium)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
    countPlaywright(path.join(results, 'e2e.json'));
    // Builds the extension against a loopback API itself, then loads it into Chromium.
    run('extension browser tests (Chromium)', 'npx', [
      'playwright',
      'test',
      '-c',
      'e2e/extension/playwright.config.ts',
    ]);
    countPlaywright(path.join(results, 'e2e-extension.json'));
  }
}

console.log('');
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((line) => `  ✗ ${line}`).join('\n')}`);
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(`total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length || totals.failed ? 1 : 0);
