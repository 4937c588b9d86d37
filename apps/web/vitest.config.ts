import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  // The shared packages' tests live outside this root.
  server: { fs: { allow: [path.resolve(here, '../..')] } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: [
      'src/**/*.test.{ts,tsx}',
      '../../packages/i18n/src/**/*.test.ts',
      '../../packages/ui/src/**/*.test.{ts,tsx}',
      '../../packages/api-client/src/**/*.test.ts',
    ],
    css: false,
    restoreMocks: true,
    // Two test files at a time at least: vitest's default (the cores less one) runs them one by one on two cores,
    // while most of a file's time is spent waiting (the database, timers, the DOM's setup). Measured on 2 cores: the
    // API on PostgreSQL 182 → 114 s, on PGlite 191 → 139 s, the web components 119 → 91 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
