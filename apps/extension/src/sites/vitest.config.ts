import { defineConfig } from 'vitest/config';

// Site knowledge is tested against saved page fixtures (apps/extension/fixtures/sites), imported with `?raw`.
export default defineConfig({
  // Keep Vite's cache in the repository's node_modules, not in a node_modules folder here.
  cacheDir: '../../../../node_modules/.vite/extension-sites',
  // The fixtures live outside this root; allow the repository (Vite's default when the root is the workspace).
  server: { fs: { allow: ['../../../..'] } },
  test: {
    environment: 'jsdom',
    include: ['**/*.test.ts'],
    restoreMocks: true,
  },
});
