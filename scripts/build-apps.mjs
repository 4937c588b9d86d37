#!/usr/bin/env node
/**
 * `npm start`'s build: the web app and the extension, each built only when what it is built from differs from what
 * its last build here was made from. A start after an unchanged checkout serves the files already built, in seconds,
 * instead of building both again (15–40 s on two cores).
 *
 * What a build is made from: every file of the app and of the shared packages (node_modules and build output left
 * out), the root's package files and TypeScript settings, and the environment variables the builds read. Their
 * contents are hashed (about 650 files, 3 MB: some milliseconds), so a checkout, a pull or an edit that changes a
 * byte rebuilds, and one that changes only dates does not. The hash is kept beside the output's own marker file
 * (its size and time), so an output built or removed by other means is built again too.
 *
 * `npm run build` always builds: this is only for starting.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SKIPPED = new Set(['node_modules', 'dist', '.output', '.wxt', 'coverage', 'test-results', '.turbo']);
// node_modules/.package-lock.json is what npm installed (it writes it on every install): a pull that changes the lock
// is built again once it is installed, not only before.
const SHARED = [
  'packages',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'node_modules/.package-lock.json',
];

const extensionOut = resolve(root, 'apps/extension', process.env.PARLEY_EXTENSION_OUT_DIR || '.output');
const APPS = [
  {
    name: 'web app',
    workspace: '@parley/web',
    dir: 'apps/web',
    marker: join(root, 'apps/web/dist/index.html'),
    // Vite reads NODE_ENV and every VITE_ variable.
    env: (key) => key === 'NODE_ENV' || key.startsWith('VITE_'),
  },
  {
    name: 'extension',
    workspace: '@parley/extension',
    dir: 'apps/extension',
    marker: join(extensionOut, 'chrome-mv3/manifest.json'),
    // wxt.config.ts reads PARLEY_API_URL, PARLEY_WEB_URL and PARLEY_EXTENSION_OUT_DIR; WXT bakes in WXT_ variables,
    // and Vite VITE_ ones.
    env: (key) =>
      key === 'NODE_ENV' || /^(VITE|WXT)_/.test(key) || /^PARLEY_(API_URL|WEB_URL|EXTENSION_OUT_DIR)$/.test(key),
  },
];
const STAMPS = join(root, 'node_modules/.cache/parley-build');

function* filesUnder(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    yield path;
    return;
  }
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(path).sort()) {
    if (!SKIPPED.has(entry)) yield* filesUnder(join(path, entry));
  }
}

/** Adds every file under `tops` (its path and contents) to `hash`. */
function hashFiles(hash, tops) {
  for (const top of tops) {
    for (const file of filesUnder(join(root, top))) {
      hash.update(`${relative(root, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash;
}

/** The shared files, read once for both apps. */
const shared = hashFiles(createHash('sha256'), SHARED).digest('hex');

/** The hash of what `app` is built from: its files, the shared ones, and the builds' environment. */
function sourcesOf(app) {
  const hash = hashFiles(createHash('sha256').update(`${shared}\0`), [app.dir]);
  for (const key of Object.keys(process.env).filter(app.env).sort()) hash.update(`${key}=${process.env[key]}\0`);
  return hash.digest('hex');
}

/** The output's marker as it stands (null when there is none): a build by other means changes it. */
function markerOf(app) {
  const stat = statSync(app.marker, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : null;
}

const stampFile = (app) => join(STAMPS, `${app.workspace.replace(/\W/g, '_')}.json`);

function readStamp(app) {
  try {
    return JSON.parse(readFileSync(stampFile(app), 'utf8'));
  } catch {
    return null;
  }
}

for (const app of APPS) {
  const sources = sourcesOf(app);
  const stamp = readStamp(app);
  const marker = markerOf(app);
  if (marker && stamp?.sources === sources && stamp.marker === marker) {
    console.log(`${app.name}: built from these sources already (${relative(root, app.marker)})`);
    continue;
  }
  // Through the npm that runs this script (npm_execpath, run by node: no shell, on every system), else `npm`.
  const npm = process.env.npm_execpath;
  const args = ['run', 'build', '-w', app.workspace];
  const built = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: root, stdio: 'inherit' })
    : spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
        cwd: root,
        stdio: 'inherit',
        shell: process.platform === 'win32',
      });
  if (built.error) console.error(`could not build the ${app.name}: ${built.error.message}`);
  if (built.status !== 0) process.exit(built.status ?? 1);
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(stampFile(app), JSON.stringify({ sources, marker: markerOf(app) }));
}
