import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test as base, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.js';

/** Pinned by the manifest `key` (apps/extension/wxt.config.ts). */
export const EXTENSION_ID = 'lmnfffjpjllagclooeeioadedodboamk';

export type Storage = Record<string, unknown> & {
  token?: string;
  session?: {
    signedIn: boolean;
    endReason: string | null;
    profile: { email: string; name: string; language: string } | null;
  };
  settings?: Record<string, unknown>;
};

type Fixtures = {
  /** Extra Chromium switches for this test's browser (e.g. host resolver rules for the site fixtures). */
  browserArgs: string[];
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** Opens one of the extension's pages in a tab. */
  openExtensionPage: (file: 'sidepanel.html' | 'options.html' | 'extensionIndex.html') => Promise<Page>;
  /** Everything in the extension's storage.local, read in the background worker. */
  storage: () => Promise<Storage>;
};

/** A fresh browser profile per test with the test build of the extension loaded. */
export const test = base.extend<Fixtures>({
  browserArgs: [[], { option: true }],
  context: async ({ browserArgs }, use) => {
    const extensionPath = process.env.E2E_EXTENSION_PATH!;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-ext-profile-'));
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      viewport: { width: 1200, height: 800 },
      args: [
        `--disable-extensions-except=${extensionPath}`,
        `--load-extension=${extensionPath}`,
        ...CHROMIUM_ARGS,
        ...browserArgs,
      ],
    });
    await use(context);
    await context.close();
    await rm(dir, { recursive: true, force: true });
  },
  worker: async ({ context }, use) => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await use(worker);
  },
  extensionId: async ({ worker }, use) => {
    await use(new URL(worker.url()).host);
  },
  openExtensionPage: async ({ context, extensionId }, use) => {
    await use(async (file) => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${file}`);
      return page;
    });
  },
  storage: async ({ worker }, use) => {
    await use(
      () =>
        worker.evaluate(() =>
          (
            globalThis as unknown as { chrome: { storage: { local: { get(keys: null): Promise<unknown> } } } }
          ).chrome.storage.local.get(null),
        ) as Promise<Storage>,
    );
  },
});

export { expect };

/** Posts a page message on the page's own window, as the web app's extension-bridge.ts does. */
export async function postUpdateToken(page: Page, token: string | null) {
  await page.evaluate((t) => window.postMessage({ type: 'UPDATE_TOKEN', token: t }, location.origin), token);
}

/** POSTs JSON to the API with a bearer token (for checks that are not the subject of a test). */
export async function apiPost(pathname: string, token: string, body: unknown) {
  const res = await fetch(process.env.E2E_BASE_URL + pathname, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { status: number; data: Record<string, unknown> } };
}
