import { existsSync } from 'node:fs';
import path from 'node:path';
import { makeExtensionFixture } from './extension-fixture.js';
import { GOOGLE_CLIENT_ID, root, startLoopbackServers } from './servers.js';
import { startWebFixtures } from './web-fixtures.js';

export { GOOGLE_CLIENT_ID };

/**
 * Starts, on loopback only: a real SMTP server that keeps what it receives, a JWKS standing in for Google's,
 * a small control server the tests ask for mails and signed ID tokens, and the production API serving the
 * built web app on its embedded database (see servers.ts).
 */
export default async function globalSetup() {
  const dist = path.resolve(root, process.env.E2E_WEB_DIST ?? 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} is missing: run \`npm run build\` before the browser tests`);
  }
  const web = await startWebFixtures();
  // A built extension (and a store page) for /install to offer.
  const extension = await makeExtensionFixture();
  const servers = await startLoopbackServers({ env: { ...web.env, ...extension.env, WEB_DIST: dist } });

  process.env.E2E_BASE_URL = servers.baseUrl;
  process.env.E2E_CONTROL_URL = servers.controlUrl;
  process.env.E2E_GOOGLE_CLIENT_ID = GOOGLE_CLIENT_ID;
  process.env.E2E_AI_BASE_URL = servers.aiBaseUrl;
  process.env.E2E_STRIPE_URL = servers.stripeUrl;
  process.env.E2E_LINKEDIN_URL = servers.linkedinUrl;
  process.env.E2E_ARTICLE_URL = web.articleUrl;
  process.env.E2E_EXTENSION_DIST = extension.dir;

  return async () => {
    await servers.close();
    await web.close();
    await extension.close();
  };
}
