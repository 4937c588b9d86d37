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
  },
});
