import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { root, startLoopbackServers, type LoopbackServers } from '../servers';
import { apiSignUp, shot, tr, uniqueEmail } from '../support';

/**
 * Daily credits as a person lives them: spent, then back the next day. The server of this file runs on a clock the
 * test moves (libfaketime, from Debian's `faketime` package: every clock of the process reads the time in a file,
 * timers keep real time), so the day changes while the browser watches.
 */

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

let servers: LoopbackServers;
let clockDir: string;
let clockFile: string;
const saved = { base: process.env.E2E_BASE_URL, control: process.env.E2E_CONTROL_URL };

/** Moves the server's clock to `seconds` ahead of the real time. */
const setOffset = (seconds: number) => writeFileSync(clockFile, `+${Math.round(seconds)}\n`);

test.beforeAll(async () => {
  if (!existsSync(LIBFAKETIME)) {
    throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime (npm test installs it)`);
  }
  clockDir = mkdtempSync(path.join(os.tmpdir(), 'parley-clock-'));
  clockFile = path.join(clockDir, 'offset');
  setOffset(0);
  servers = await startLoopbackServers({
    env: {
      WEB_DIST: path.resolve(root, process.env.E2E_WEB_DIST ?? 'apps/web/dist'),
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: clockFile,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      // Renewals every 5 s instead of every minute: the test waits for one.
      CREDIT_RENEWAL_SECONDS: '5',
    },
  });
  // The helpers of support.ts talk to "the" server: this file's, until it ends.
  process.env.E2E_BASE_URL = servers.baseUrl;
  process.env.E2E_CONTROL_URL = servers.controlUrl;
});

test.afterAll(async () => {
  process.env.E2E_BASE_URL = saved.base;
  process.env.E2E_CONTROL_URL = saved.control;
  await servers?.close();
  if (clockDir) rmSync(clockDir, { recursive: true, force: true });
});

const daily = (page: Page) =>
  page
    .locator('dt', { hasText: tr('en', 'home:credits.dailyCredit') })
    .locator('xpath=following-sibling::dd[1]')
    .first(); // the person's own credits come first (the plans below list their allowances)

test('daily credits spent today are back after midnight', async ({ page }) => {
  test.setTimeout(90_000);
  const { token } = await apiSignUp(uniqueEmail('renewal'));
  const post = (route: string, body: unknown) =>
    fetch(`${servers.baseUrl}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const model = 'CUSTOM_OPENAI_COMPATIBLE';
  expect((await post('/api/ai/edit-message', { text: 'Make it better', model })).status).toBe(200);
  expect((await post('/api/ai/edit-message', { text: 'And shorter', model })).status).toBe(200);

  await page.goto(`${servers.baseUrl}/not-found`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(`${servers.baseUrl}/home`);
  await expect(daily(page)).toHaveText('1');
  await shot(page, 'renewal-before-midnight');

  // The account has no time zone of its own: its midnight is UTC's. Move the server to 30 s after the next one.
  const now = new Date();
  const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  setOffset((nextMidnight - now.getTime()) / 1000 + 30);

  // Renewals run every 5 s on this server: within one, the dashboard shows the day's credits again.
  await expect
    .poll(
      async () => {
        await page.reload();
        return daily(page).textContent({ timeout: 10_000 });
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe('3');
  // Use over the last 30 days still counts yesterday's two.
  await expect(
    page
      .locator('dt', { hasText: tr('en', 'home:usage.basicUse') })
      .locator('xpath=following-sibling::dd[1]')
      .first(),
  ).toHaveText('2');
  await shot(page, 'renewal-after-midnight');
});
