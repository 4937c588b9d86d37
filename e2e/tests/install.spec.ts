import { readFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type BrowserContext } from '@playwright/test';
import { EXTENSION_STORE_URL, FIXTURE_BACKGROUND } from '../extension-fixture';
import { shot, tr, type Lng } from '../support';

/** The files of a zip, read from its central directory (deflated or stored). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const files = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    files.set(name, method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return files;
}

async function useLanguage(context: BrowserContext, baseUrl: string, lng: Lng) {
  await context.addCookies([{ name: 'lang', value: lng, url: baseUrl }]);
}

const base = () => process.env.E2E_BASE_URL!;

for (const width of [1280, 375]) {
  test(`/install offers the download and the steps, and the download is the extension (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base()}/install`);
    await expect(page).toHaveTitle(`${tr('en', 'common:install.pageTitle')} | Parley`);
    await expect(page.getByRole('heading', { level: 1, name: tr('en', 'common:install.title') })).toBeVisible();
    const link = page.getByRole('link', { name: tr('en', 'common:install.download.action') });
    await expect(link).toBeVisible();
    await expect(page.getByText(/^Version 0\.9\.1 · .+ · ZIP file$/)).toBeVisible();
    await expect(page.getByText(tr('en', 'common:install.download.unzip'))).toBeVisible();
    // The server names a store page (EXTENSION_STORE_URL): it comes first, the download second.
    const store = page.getByRole('link', { name: tr('en', 'common:install.store.action') });
    await expect(store).toBeVisible();
    await expect(store).toHaveAttribute('href', EXTENSION_STORE_URL);
    await expect(page.getByRole('heading', { name: tr('en', 'common:install.store.manual') })).toBeVisible();
    // No extension in this browser.
    await expect(page.getByText(tr('en', 'common:install.absent'))).toBeVisible();
    await expect(page.getByText(tr('en', 'common:install.reload'))).toBeVisible();

    // Five illustrated steps for Chromium (read as Chrome).
    await expect(page.getByRole('heading', { name: 'Add it to Chrome' })).toBeVisible();
    const steps = page.getByRole('tabpanel');
    await expect(steps.getByRole('listitem')).toHaveCount(5);
    await expect(steps.locator('code', { hasText: 'chrome://extensions' })).toBeVisible();
    await expect(steps.locator('code', { hasText: 'parley-extension-0.9.1.zip' })).toBeVisible();
    await expect(steps.getByRole('heading', { name: 'Click “Load unpacked”' })).toBeVisible();
    // Nothing is wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `install-en-${width}`, { fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('parley-extension-0.9.1.zip');
    const files = unzip(readFileSync((await download.path())!));
    expect([...files.keys()].sort()).toEqual(['background.js', 'chunks/panel-1f2e.js', 'manifest.json']);
    expect(JSON.parse(files.get('manifest.json')!.toString('utf8'))).toMatchObject({
      manifest_version: 3,
      version: '0.9.1',
    });
    expect(files.get('background.js')!.toString('utf8')).toBe(FIXTURE_BACKGROUND);

    await page.getByRole('tab', { name: 'Edge' }).click();
    await expect(steps.locator('code', { hasText: 'edge://extensions' })).toBeVisible();
    await shot(page, `install-edge-en-${width}`, { fullPage: true });
  });
}

for (const lng of ['es', 'fr'] as const) {
  for (const width of [1280, 375]) {
    test(`/install reads in ${lng} (${width} px)`, async ({ page, context }) => {
      await useLanguage(context, base(), lng);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base()}/install`);
      await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'common:install.title') })).toBeVisible();
      await expect(page.getByRole('link', { name: tr(lng, 'common:install.download.action') })).toBeVisible();
      const devMode = tr(lng, 'common:install.browserUi.chrome.devMode');
      await expect(
        page.getByRole('heading', { name: tr(lng, 'common:install.steps.devMode.title', { label: devMode }) }),
      ).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `install-${lng}-${width}`, { fullPage: true });
    });
  }
}

test('without a built extension the page says how to build one, and never links to a download', async ({ page }) => {
  const manifest = path.join(process.env.E2E_EXTENSION_DIST!, 'manifest.json');
  await rename(manifest, `${manifest}.away`);
  try {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base()}/install`);
      await expect(page.getByRole('heading', { name: tr('en', 'common:install.notBuilt.title') })).toBeVisible();
      await expect(page.getByText(tr('en', 'common:install.notBuilt.body'))).toBeVisible();
      await expect(page.getByRole('link', { name: tr('en', 'common:install.download.action') })).toHaveCount(0);
      // The store page, when there is one, is still offered.
      await expect(page.getByRole('link', { name: tr('en', 'common:install.store.action') })).toBeVisible();
      await shot(page, `install-not-built-en-${width}`, { fullPage: true });
    }
    const res = await page.request.get(`${base()}/api/extension/download`, { headers: { 'lang-type': 'fr' } });
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'EXTENSION_NOT_BUILT' });
  } finally {
    await rename(`${manifest}.away`, manifest);
  }
  // Built again: "Check again" finds it without a restart.
  await page.getByRole('button', { name: tr('en', 'common:install.notBuilt.again') }).click();
  await expect(page.getByRole('link', { name: tr('en', 'common:install.download.action') })).toBeVisible();
});

test('/install/:id keeps working', async ({ page }) => {
  await page.goto(`${base()}/install/launch-2026`);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'common:install.title') })).toBeVisible();
  await expect(page.getByText(tr('en', 'common:install.reference', { id: 'launch-2026' }))).toBeVisible();
});

for (const lng of ['en', 'es', 'fr'] as const) {
  test(`/extensionIndex.html on the web explains where the page lives (${lng})`, async ({ page, context }) => {
    await useLanguage(context, base(), lng);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const res = await page.goto(`${base()}/extensionIndex.html`);
      expect(res?.headers()['content-type']).toContain('text/html');
      await expect(
        page.getByRole('heading', { level: 1, name: tr(lng, 'common:install.extensionPage.title') }),
      ).toBeVisible();
      await expect(page).toHaveTitle(`${tr(lng, 'common:install.extensionPage.pageTitle')} | Parley`);
      await expect(page.getByText(tr(lng, 'common:install.extensionPage.howTo'))).toBeVisible();
      await shot(page, `extension-index-${lng}-${width}`, { fullPage: true });
    }
    await page.getByRole('link', { name: tr(lng, 'common:install.extensionPage.install') }).click();
    await expect(page).toHaveURL(/\/install$/);
    await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'common:install.title') })).toBeVisible();
  });
}
