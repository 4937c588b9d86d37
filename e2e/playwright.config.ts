import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium, never a downloaded browser; flags that work on a machine without network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where reports and artifacts go (`E2E_OUT`, for runs side by side); `test-results/` by default. */
export const E2E_OUT = path.resolve(
  fileURLToPath(new URL('..', import.meta.url)),
  process.env.E2E_OUT ?? 'test-results',
);

/**
 * Two test files at a time (a browser each, one server for both): every test signs up its own people, so files do not
 * share data, and the tests within a file keep their order. `E2E_WORKERS=1` runs one file at a time.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS) || 2;

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: `${E2E_OUT}/e2e.json` }]],
  outputDir: `${E2E_OUT}/e2e`,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
