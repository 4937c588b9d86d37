import { defineConfig } from '@playwright/test';
import { E2E_OUT, E2E_WORKERS } from '../playwright.config.js';

/**
 * The built extension in Debian's Chromium (persistent context, see fixtures.ts). Run with
 * `npx playwright test -c e2e/extension/playwright.config.ts` after building the web app.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: `${E2E_OUT}/e2e-extension.json` }]],
  outputDir: `${E2E_OUT}/e2e-extension`,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
