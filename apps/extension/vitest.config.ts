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
  },
});
