import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { freePort, isPortFree, listen, root, startLoopbackServers } from '../servers.js';
import { E2E_OUT } from '../playwright.config.js';
import { startWebFixtures } from '../web-fixtures.js';
import { serveCaptureFixture } from './capture-fixtures.js';

/** Port the test build of the extension is baked with (falls back to a free one when taken). */
const PREFERRED_API_PORT = 3999;

/** Pages of another origin, for hostile-page and "chat with this page" tests. */
function startOtherSite() {
  const pages: Record<string, string> = {
    '/article': `<!doctype html><html><head><title>Lighthouses of the north</title></head><body>
      <nav>Home · About · Log in</nav>
      <article><h1>Lighthouses of the north</h1>
      ${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: the keepers climbed the stairs every evening to light the lamp, and the beam reached ships far out at sea through fog and storm.</p>`).join('\n')}
      </article><footer>Cookie banner text</footer></body></html>`,
    '/hostile': `<!doctype html><html><head><title>Hostile</title></head><body><p>Nothing to see.</p></body></html>`,
  };
  const server = createServer((req, res) => {
    if (serveCaptureFixture(req, res)) return;
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.statusCode = page ? 200 : 404;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page ?? 'not found');
  });
  return server;
}

/**
 * Builds the extension against a loopback API (the origin is baked at build time, as in production), then starts the
 * same loopback servers as e2e/global-setup.ts with the API on that port.
 */
export default async function globalSetup() {
  if (!existsSync(path.resolve(root, process.env.E2E_WEB_DIST ?? 'apps/web/dist', 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build -w @parley/web` before the browser tests');
  }
  const apiPort = (await isPortFree(PREFERRED_API_PORT)) ? PREFERRED_API_PORT : await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const outDir = path.join(E2E_OUT, 'extension-build');

  const build = spawnSync('npx', ['wxt', 'build'], {
    cwd: path.join(root, 'apps/extension'),
    env: { ...process.env, PARLEY_API_URL: apiUrl, PARLEY_WEB_URL: apiUrl, PARLEY_EXTENSION_OUT_DIR: outDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`building the extension failed:\n${build.stdout}\n${build.stderr}`);

  // The page and the SearXNG stand-in of the web's chat tests: the side panel's Ask For Web searches there.
  const web = await startWebFixtures();
  const servers = await startLoopbackServers({
    apiPort,
    env: {
      ...web.env,
      // The server offers the extension it was built with at /install.
      EXTENSION_DIST: path.join(outDir, 'chrome-mv3'),
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: path.resolve(root, process.env.E2E_WEB_DIST) } : {}),
    },
  });
  const other = startOtherSite();
  const otherPort = await listen(other);

  process.env.E2E_BASE_URL = servers.baseUrl;
  process.env.E2E_CONTROL_URL = servers.controlUrl;
  process.env.E2E_EXTENSION_PATH = path.join(outDir, 'chrome-mv3');
  process.env.E2E_OTHER_URL = `http://127.0.0.1:${otherPort}`;
  process.env.E2E_ARTICLE_URL = web.articleUrl;

  return async () => {
    await new Promise((r) => other.close(r));
    await servers.close();
    await web.close();
  };
}
