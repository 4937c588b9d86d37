import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { apiSignUp, tr, uniqueEmail } from '../../support.js';
import { apiPost, expect, postUpdateToken, test as base, type Storage } from '../fixtures.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/extension/fixtures/sites');

/**
 * The site fixtures served over HTTPS on loopback under the sites' real host names, so the manifest's real match
 * patterns and each site module's match() run. The certificate is made for this run only.
 */

const HOSTS = [
  'mail.google.com',
  'outlook.live.com',
  'www.linkedin.com',
  'www.instagram.com',
  'www.facebook.com',
  'www.youtube.com',
  'x.com',
  'www.google.com',
  'www.example.org',
];

/** Address → fixture file (apps/extension/fixtures/sites). */
const PAGES: Record<string, string> = {
  'https://mail.google.com/mail/u/0/': 'gmail/thread-reply.html',
  'https://outlook.live.com/mail/0/inbox/id/AAQkADAwATM3ZmYAZS05NzQ2': 'outlook/conversation-reply.html',
  'https://www.linkedin.com/feed/update/urn:li:activity:7301234567890123456/': 'linkedin/feed-post.html',
  'https://www.linkedin.com/messaging/thread/2-YmE3ZTRkNjQtZjYwMS00/': 'linkedin/messaging.html',
  'https://www.instagram.com/p/C4xAmPlE123/': 'instagram/post.html',
  'https://www.facebook.com/groups/examplecyclists/posts/1234567890123456/': 'facebook/post.html',
  'https://www.youtube.com/watch': 'youtube/watch.html',
  'https://x.com/lunar_garden_ex/status/1897000000000000001': 'x/status-reply.html',
  'https://www.google.com/search': 'search/google.html',
};

/** A plain page of no particular site (the mini menu and quick access run on every page). */
const ARTICLE_URL = 'https://www.example.org/article';
const ARTICLE = `<!doctype html><html><head><title>Tides of the bay</title></head><body>
  <h1>Tides of the bay</h1>
  <p id="para">The tide rises twice a day, and the fishing boats leave the harbour an hour before high water.</p>
  <textarea id="notes" rows="3" cols="60"></textarea>
</body></html>`;

const URLS = {
  gmail: 'https://mail.google.com/mail/u/0/#inbox/FMfcgzQZTlxvBqWnKcDgFhRsTvMpLkJd',
  outlook: 'https://outlook.live.com/mail/0/inbox/id/AAQkADAwATM3ZmYAZS05NzQ2',
  linkedinFeed: 'https://www.linkedin.com/feed/update/urn:li:activity:7301234567890123456/',
  linkedinMessaging: 'https://www.linkedin.com/messaging/thread/2-YmE3ZTRkNjQtZjYwMS00/',
  instagram: 'https://www.instagram.com/p/C4xAmPlE123/',
  facebook: 'https://www.facebook.com/groups/examplecyclists/posts/1234567890123456/',
  youtube: 'https://www.youtube.com/watch?v=dQx1Example',
  x: 'https://x.com/lunar_garden_ex/status/1897000000000000001',
};

type SiteServer = { port: number; close: () => Promise<void> };

async function startSiteServer(): Promise<SiteServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-sites-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=parley-test',
      '-addext',
      `subjectAltName=${HOSTS.map((h) => `DNS:${h}`).join(',')}`,
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    if (`https://${host}${url.pathname}` === ARTICLE_URL) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(ARTICLE);
      return;
    }
    const file = PAGES[`https://${host}${url.pathname}`];
    if (!file) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    readFile(path.join(FIXTURES, file)).then(
      (html) => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(html);
      },
      () => {
        res.statusCode = 500;
        res.end('fixture missing');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await rm(dir, { recursive: true, force: true });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const test = base.extend<object, { siteServer: SiteServer }>({
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

const replyButton = (page: Page) =>
  page
    .locator('parley-reply')
    .first()
    .getByRole('button', { name: tr('en', 'extension:onSite.replyButton') });

/** Signs the extension in (with some settings stored on the account first) and waits for the settings to arrive. */
async function signIn(page: Page, storage: () => Promise<Storage>, changes: Record<string, unknown> = {}) {
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

const editorText = (page: Page) =>
  page.evaluate(() => (window as unknown as { __editorState?: { text: string } }).__editorState?.text ?? '');

test('every site gets a reply button whose suggestion lands in the site editor', async ({ context, page, storage }) => {
  await signIn(page, storage);
  for (const [name, url] of Object.entries(URLS)) {
    await test.step(name, async () => {
      const site = await context.newPage();
      await site.goto(url);
      const button = replyButton(site);
      await expect(button).toBeVisible();
      await button.click();
      const suggestion = site.locator('parley-reply [data-parley=suggestion]').first();
      await expect(suggestion).toContainText('You asked:');
      const firstLine = ((await suggestion.textContent()) ?? '').split('\n')[0]!.trim().slice(0, 40);
      await site
        .locator('parley-reply')
        .first()
        .getByRole('button', { name: tr('en', 'extension:onSite.insert') })
        .click();
      await expect
        .poll(() => editorText(site), { message: `${name}: the editor's model has the text` })
        .toContain(firstLine);
      await site.close();
    });
  }
});

test('Gmail and YouTube show a summary', async ({ context, page, storage }) => {
  await signIn(page, storage);
  for (const url of [URLS.gmail, URLS.youtube]) {
    const site = await context.newPage();
    await site.goto(url);
    await site
      .locator('parley-summary')
      .getByRole('button', { name: tr('en', 'extension:onSite.summarize') })
      .click();
    await expect(site.locator('parley-summary [data-parley=summary]')).toContainText('You asked:');
    await site.close();
  }
});

test('a disabled site gets no button; nor does a site whose instant reply is off', async ({
  context,
  page,
  storage,
}) => {
  await signIn(page, storage, { disabledSites: ['x.com'], instantReplyInstagram: '0' });
  const x = await context.newPage();
  await x.goto(URLS.x);
  const instagram = await context.newPage();
  await instagram.goto(URLS.instagram);
  // The same browser still puts the button on the other sites.
  const facebook = await context.newPage();
  await facebook.goto(URLS.facebook);
  await expect(replyButton(facebook)).toBeVisible();
  await facebook.waitForTimeout(500);
  await expect(x.locator('parley-reply')).toHaveCount(0);
  await expect(instagram.locator('parley-reply')).toHaveCount(0);
});

const quick = (page: Page) => page.locator('parley-quick');

test('selected text gets the mini menu; Summarize shows the answer, Rewrite in a field can be inserted', async ({
  context,
  page,
  storage,
}) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  await site.locator('#para').click({ clickCount: 3 });
  await quick(site)
    .getByRole('button', { name: tr('en', 'extension:onSite.summarize') })
    .click();
  await expect(quick(site).locator('[data-parley=quick-result]')).toContainText('You asked:');
  await expect(quick(site).getByRole('button', { name: tr('en', 'extension:onSite.copy') })).toBeVisible();
  // Not editable: no Insert.
  await expect(quick(site).getByRole('button', { name: tr('en', 'extension:onSite.insert') })).toHaveCount(0);

  await site.keyboard.press('Escape');
  await expect(quick(site)).toHaveCount(0);
  const notes = site.locator('#notes');
  await notes.fill('we leave early tomorrow');
  await notes.press('Shift+Home');
  await quick(site)
    .getByRole('button', { name: tr('en', 'extension:onSite.rewrite') })
    .click();
  await expect(quick(site).locator('[data-parley=quick-result]')).toContainText('You asked:');
  await quick(site)
    .getByRole('button', { name: tr('en', 'extension:onSite.insert') })
    .click();
  await expect(notes).toHaveValue(/You asked:/);
  await expect(quick(site)).toHaveCount(0);
});

test('the quick-access shortcut opens the box anywhere; Esc closes it', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  await site.locator('h1').click();
  await site.keyboard.press('Control+Shift+K');
  const box = quick(site).getByRole('textbox', { name: tr('en', 'extension:onSite.quickAccess') });
  await expect(box).toBeFocused();
  await box.fill('When do the boats leave?');
  await box.press('Enter');
  await expect(quick(site).locator('[data-parley=quick-result]')).toContainText('You asked:');
  await box.press('Escape');
  await expect(quick(site)).toHaveCount(0);
});

test('a Google results page gets the Search with AI card with its sources', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto('https://www.google.com/search?q=how+to+store+fresh+basil');
  const card = site.locator('#rhs parley-search');
  await card.getByRole('button', { name: tr('en', 'extension:onSite.searchAsk') }).click();
  await expect(card.locator('[data-parley=search-answer]')).toContainText('You asked:');
  await expect(card.getByRole('link', { name: 'Keeping basil fresh for a week – Herb Notes' })).toHaveAttribute(
    'href',
    'https://herbs.example.org/basil-storage',
  );
  await expect(card.getByRole('link')).toHaveCount(2);
});

test('mini menu off: selecting text shows nothing; search with AI off: no card', async ({ context, page, storage }) => {
  await signIn(page, storage, { miniMenu: '0', searchWithAI: '0' });
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  await site.locator('#para').click({ clickCount: 3 });
  const google = await context.newPage();
  await google.goto('https://www.google.com/search?q=how+to+store+fresh+basil');
  await site.waitForTimeout(800);
  await expect(quick(site)).toHaveCount(0);
  await expect(google.locator('parley-search')).toHaveCount(0);
});
