import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The store page the browser tests' server names (EXTENSION_STORE_URL). */
export const EXTENSION_STORE_URL = 'https://chromewebstore.google.com/detail/parley/lmnfffjpjllagclooeeioadedodboamk';

/** What the stand-in build's background script says; the tests find it again in the downloaded zip. */
export const FIXTURE_BACKGROUND = `chrome.runtime.onInstalled.addListener(() => console.log(${JSON.stringify('ready '.repeat(200))}));\n`;

/**
 * A small built extension (Manifest V3) for the server to offer at /install, so the web tests do not depend on
 * whether apps/extension was built on this machine. The extension's own tests offer the real build.
 */
export async function makeExtensionFixture() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-e2e-extension-'));
  await mkdir(path.join(dir, 'chunks'));
  await writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Parley',
      version: '0.9.1',
      background: { service_worker: 'background.js' },
    }),
  );
  await writeFile(path.join(dir, 'background.js'), FIXTURE_BACKGROUND);
  await writeFile(path.join(dir, 'chunks', 'panel-1f2e.js'), 'export default 1;\n');
  return {
    dir,
    env: { EXTENSION_DIST: dir, EXTENSION_STORE_URL },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
