import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { isolationProjects } from '../../scripts/vitest-isolation.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time at least: vitest's default (the cores less one) runs them one by one on two cores,
    // while most of a file's time is spent waiting (the database, timers, the DOM's setup). Measured on 2 cores: the
    // API on PostgreSQL 182 → 114 s, on PGlite 191 → 139 s, the web components 119 → 91 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Without isolation but for the files that replace a module (scripts/vitest-isolation.mjs): 199 → 129 s on
    // PostgreSQL, 288 → 186 s on PGlite, on 2 cores. Each file still builds its own app on its own database.
    // Each project migrates once (src/test/global-setup.ts), for its own files.
    projects: isolationProjects(here, 'api', ['src/**/*.test.ts', 'lint/**/*.test.ts'], ['src', 'lint'], {
      globalSetup: ['./src/test/global-setup.ts'],
    }),
  },
});
