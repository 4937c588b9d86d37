import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { isolationProjects } from '../../scripts/vitest-isolation.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  // The shared packages' tests live outside this root.
  server: { fs: { allow: [path.resolve(here, '../..')] } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // Two test files at a time at least, as for the API (apps/api/vitest.config.ts): 119 → 91 s on 2 cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Without isolation but for the files that replace a module (scripts/vitest-isolation.mjs): 138 → 45 s on 2
    // cores. The setup file gives every test a clean DOM, storage, cookies, i18n and query cache.
    unstubGlobals: true,
    projects: isolationProjects(
      here,
      'web',
      [
        'src/**/*.test.{ts,tsx}',
        '../../packages/i18n/src/**/*.test.ts',
        '../../packages/ui/src/**/*.test.{ts,tsx}',
        '../../packages/api-client/src/**/*.test.ts',
      ],
      ['src', '../../packages/i18n/src', '../../packages/ui/src', '../../packages/api-client/src'],
    ),
  },
});
