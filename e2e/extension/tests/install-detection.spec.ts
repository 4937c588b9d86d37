import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { apiSignUp, openSignedIn, shot, tr, uniqueEmail } from '../../support.js';
import { expect, test } from '../fixtures.js';

const web = () => process.env.E2E_BASE_URL!;
const other = () => process.env.E2E_OTHER_URL!;

/** One file out of a zip, found through the central directory. */
function fileInZip(zip: Buffer, wanted: string): Buffer | null {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (name === wanted) {
      const local = zip.readUInt32LE(at + 42);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(start, start + zip.readUInt32LE(at + 20));
      return zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : raw;
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return null;
}

test('/install notices the installed extension and offers the very build that is loaded', async ({ page, worker }) => {
  const manifest = (await worker.evaluate(() =>
    (
      globalThis as unknown as { chrome: { runtime: { getManifest(): { version: string } } } }
    ).chrome.runtime.getManifest(),
  )) as { version: string; key?: string };

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${web()}/install`);
    await expect(page.getByText(tr('en', 'common:install.installed.title'))).toBeVisible();
    await expect(
      page.getByText(tr('en', 'common:install.installed.version', { version: manifest.version }), { exact: true }),
    ).toBeVisible();
    // Installed: no "reload when you have installed it".
    await expect(page.getByText(tr('en', 'common:install.reload'))).toHaveCount(0);
    await shot(page, `install-installed-en-${width}`, { fullPage: true });
  }

  // The server offers the extension it was built with: the zip's manifest is the loaded one's.
  const link = page.getByRole('link', { name: tr('en', 'common:install.download.action') });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const zipped = fileInZip(readFileSync((await download.path())!), 'manifest.json');
  expect(zipped).not.toBeNull();
  const offered = JSON.parse(zipped!.toString('utf8')) as typeof manifest;
  expect(offered.version).toBe(manifest.version);
  // The same key, so "Load unpacked" gives the same extension id the web app and the API know.
  expect(offered.key).toBeTruthy();
  expect(offered.key).toBe(manifest.key);
});

test('another site cannot ask whether the extension is installed', async ({ page }) => {
  await page.goto(`${other()}/article`);
  const answered = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        window.addEventListener('message', (event) => {
          if ((event.data as { type?: string })?.type === 'PARLEY_EXTENSION_PRESENT') resolve(true);
        });
        window.postMessage({ type: 'PARLEY_EXTENSION_PING' }, location.origin);
        setTimeout(() => resolve(false), 2000);
      }),
  );
  expect(answered).toBe(false);
});

test('onboarding and /extensionIndex.html on the web know the extension is there', async ({ page }) => {
  const user = await apiSignUp(uniqueEmail('ext-onboarding'), undefined, 'Onboarding Olga');
  await openSignedIn(page, user.token, '/on-boarding/1');
  const next = page.getByRole('button', { name: tr('en', 'onboarding:continue'), exact: true });
  await next.click();
  await next.click();
  await expect(page.getByRole('heading', { name: tr('en', 'onboarding:slider.extension.title') })).toBeVisible();
  await expect(page.getByText(tr('en', 'onboarding:slider.extension.installed'))).toBeVisible();
  await expect(page.getByRole('link', { name: tr('en', 'onboarding:slider.extension.action') })).toHaveCount(0);
  await shot(page, 'onboarding-slide3-installed-en-1200', { fullPage: true });

  await page.goto(`${web()}/extensionIndex.html`);
  await expect(page.getByText(tr('en', 'common:install.extensionPage.installed'))).toBeVisible();
  await expect(page.getByRole('link', { name: tr('en', 'common:install.extensionPage.install') })).toHaveCount(0);
});
