import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { apiSignUp, uniqueEmail } from '../support.js';
import { apiPost, expect, postUpdateToken, test as base, type Storage } from './fixtures.js';

/**
 * The site fixtures (apps/extension/fixtures/sites) served over HTTPS on loopback under the sites' real host names, so
 * the manifest's real match patterns and each site module's match() run; the certificate is made for one run only.
 * `test` here is fixtures.ts's test with the browser pointed at that server.
 */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/extension/fixtures/sites');

/** Address (without the query) → fixture file. */
const PAGES: Record<string, string> = {
  'https://mail.google.com/mail/u/0/': 'gmail/thread-reply.html',
  'https://outlook.live.com/mail/0/inbox/id/AAQkADAwATM3ZmYAZS05NzQ2': 'outlook/conversation-reply.html',
  'https://www.linkedin.com/feed/update/urn:li:activity:7301234567890123456/': 'linkedin/feed-post.html',
  'https://www.linkedin.com/messaging/thread/2-YmE3ZTRkNjQtZjYwMS00/': 'linkedin/messaging.html',
  'https://www.linkedin.com/feed/': 'linkedin/feed.html',
  'https://www.linkedin.com/search/results/content/': 'linkedin/search.html',
  'https://www.linkedin.com/in/kai-tanaka-example/': 'linkedin/profile.html',
  'https://www.linkedin.com/sales/ssi': 'linkedin/ssi.html',
  'https://www.instagram.com/p/C4xAmPlE123/': 'instagram/post.html',
  'https://www.facebook.com/groups/examplecyclists/posts/1234567890123456/': 'facebook/post.html',
  'https://www.youtube.com/watch': 'youtube/watch.html',
  'https://x.com/lunar_garden_ex/status/1897000000000000001': 'x/status-reply.html',
  'https://www.google.com/search': 'search/google.html',
  'https://www.bing.com/search': 'search/bing.html',
  'https://duckduckgo.com/': 'search/duckduckgo.html',
};

/** A plain page of no particular site (the mini menu and quick access run on every page). */
const ARTICLE = `<!doctype html><html><head><title>Tides of the bay</title></head><body>
  <h1>Tides of the bay</h1>
  <p id="para">The tide rises twice a day, and the fishing boats leave the harbour an hour before high water.</p>
  <textarea id="notes" rows="3" cols="60"></textarea>
</body></html>`;

export const URLS = {
  gmail: 'https://mail.google.com/mail/u/0/#inbox/FMfcgzQZTlxvBqWnKcDgFhRsTvMpLkJd',
  outlook: 'https://outlook.live.com/mail/0/inbox/id/AAQkADAwATM3ZmYAZS05NzQ2',
  linkedin: 'https://www.linkedin.com/feed/update/urn:li:activity:7301234567890123456/',
  facebook: 'https://www.facebook.com/groups/examplecyclists/posts/1234567890123456/',
  x: 'https://x.com/lunar_garden_ex/status/1897000000000000001',
  youtube: 'https://www.youtube.com/watch?v=dQx1Example',
  google: 'https://www.google.com/search?q=how+to+store+fresh+basil',
  bing: 'https://www.bing.com/search?q=how+to+store+fresh+basil&form=QBLH',
  duckduckgo: 'https://duckduckgo.com/?q=how+to+store+fresh+basil&ia=web',
  article: 'https://www.example.org/article',
};

const HOSTS = [...new Set([...Object.keys(PAGES), URLS.article].map((url) => new URL(url).host))];

export type HttpsServer = { port: number; close: () => Promise<void> };

/**
 * An HTTPS server on loopback with a certificate for these host names, made for this run only (the browser maps the
 * names to it with --host-resolver-rules).
 */
export async function startHttpsServer(
  hosts: string[],
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HttpsServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-sites-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=parley-test'],
      ...['-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`],
      ...['-keyout', key, '-out', cert, '-days', '1'],
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(cert) }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await rm(dir, { recursive: true, force: true });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function startSiteServer(): Promise<HttpsServer> {
  return startHttpsServer(HOSTS, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const address = `https://${host}${new URL(req.url ?? '/', `https://${host}`).pathname}`;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (address === URLS.article) {
      res.end(ARTICLE);
      return;
    }
    const file = PAGES[address];
    if (!file) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    readFile(path.join(FIXTURES, file)).then(
      (html) => res.end(html),
      () => {
        res.statusCode = 500;
        res.end('fixture missing');
      },
    );
  });
}

export const test = base.extend<object, { siteServer: HttpsServer }>({
  siteServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSiteServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  browserArgs: async ({ siteServer }, use) => {
    const rules = HOSTS.map((host) => `MAP ${host} 127.0.0.1:${siteServer.port}`).join(', ');
    await use([`--host-resolver-rules=${rules}`, '--ignore-certificate-errors']);
  },
});

export { expect };

/**
 * Signs the extension in through the web app bridge (with these settings stored on the account first) and waits
 * until the settings reached the extension's storage.
 */
export async function signIn(page: Page, storage: () => Promise<Storage>, changes: Record<string, unknown> = {}) {
  const user = await apiSignUp(uniqueEmail('ext-sites'));
  // The loopback API serves only its OpenAI-compatible test model (the fake AI).
  const settings = { model: 'CUSTOM_OPENAI_COMPATIBLE', ...changes };
  expect((await apiPost('/api/user/setting', user.token, settings)).status).toBe(200);
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);
  await expect.poll(async () => (await storage()).settings).toMatchObject(settings);
  return user;
}

/** What the fixture's imitation of the site's editor model holds (it follows input events or DOM mutations). */
export const editorState = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __editorState?: { text: string; events: number } }).__editorState ?? null,
  );

export { allowClipboard, clipboardText, everyButtonName, onSite } from './on-site.js';
