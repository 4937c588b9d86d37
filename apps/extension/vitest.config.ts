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
    // Two test files at a time at least, as for the API (apps/api/vitest.config.ts): 39 → 29 s on 2 cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
