import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'lint/**/*.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time at least: vitest's default (the cores less one) runs them one by one on two cores,
    // while most of a file's time is spent waiting (the database, timers, the DOM's setup). Measured on 2 cores: the
    // API on PostgreSQL 182 → 114 s, on PGlite 191 → 139 s, the web components 119 → 91 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
