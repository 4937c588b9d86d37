// Which test files need a module registry of their own (see isolationProjects).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A test file that replaces a module for itself. */
const MOCKS_A_MODULE = /\bvi\.(?:mock|doMock)\(/;

/**
 * The test files under `dirs` (relative to `root`) that replace a module (`vi.mock`, `vi.doMock`), relative to `root`
 * with forward slashes.
 *
 * @param {string} root
 * @param {string[]} dirs
 * @returns {string[]}
 */
export function filesThatMock(root, dirs) {
  const found = [];
  for (const dir of dirs) {
    for (const file of readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.test\.tsx?$/.test(file) || file.split(path.sep).includes('node_modules')) continue;
      const relative = path.join(dir, file);
      if (MOCKS_A_MODULE.test(readFileSync(path.join(root, relative), 'utf8')))
        found.push(relative.split(path.sep).join('/'));
    }
  }
  return found.sort();
}

/**
 * Two vitest projects for one suite (decision 042). Most test files run without isolation: each worker keeps its
 * modules from one file to the next, so a file does not import the app again (measured on 2 cores: the API's files
 * spent 94–114 s importing, 18–20 s without isolation; the web components took 138 s, 45 s without). A file that
 * replaces a module needs a registry of its own (a module an earlier file loaded would stay unreplaced), so those run
 * isolated. Every file still starts from its own state: its own app and database (API), a clean DOM, localStorage, i18n
 * and query cache (the web's setup file).
 *
 * @param {string} root the config's folder
 * @param {string} name the suite's name
 * @param {string[]} include the suite's test files (globs relative to root)
 * @param {string[]} dirs the folders (relative to root) that hold them
 * @param {{ globalSetup?: string[] }} [each] options of each project rather than of the root: a root's global setup
 *   runs for the root and again for every project that extends it
 */
export function isolationProjects(root, name, include, dirs, each = {}) {
  const isolated = filesThatMock(root, dirs);
  return [
    { extends: true, test: { ...each, name, include, exclude: ['**/node_modules/**', ...isolated], isolate: false } },
    ...(isolated.length
      ? [{ extends: true, test: { ...each, name: `${name} (isolated)`, include: isolated, isolate: true } }]
      : []),
  ];
}
