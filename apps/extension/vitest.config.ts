import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/** Unit tests of the extension's logic: WXT's fake browser, the build-time origins of wxt.config.ts. */
export default defineConfig({
  plugins: [WxtVitest({ root: path.dirname(fileURLToPath(import.meta.url)) })],
  test: {
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
    // Two test files at a time at least: vitest's default (the cores less one) runs them one by one on two cores,
    // while most of a file's time is spent waiting (the database, timers, the DOM's setup). Measured on 2 cores: the
    // API on PostgreSQL 182 → 114 s, on PGlite 191 → 139 s, the web components 119 → 91 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
