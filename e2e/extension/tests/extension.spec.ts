import {
  apiGet,
  apiSetLanguage,
  apiSignUp,
  exact,
  shot,
  storedToken,
  tr,
  uiLogin,
  uniqueEmail,
} from '../../support.js';
import { apiPost, EXTENSION_ID, expect, postUpdateToken, test } from '../fixtures.js';

const web = () => process.env.E2E_BASE_URL!;
const other = () => process.env.E2E_OTHER_URL!;
const kindlyLogin = exact(tr('en', 'extension:session.kindlyLogin'));
const loggedOut = exact(tr('en', 'extension:session.loggedOut'));

test('the manifest key pins the extension id', async ({ extensionId }) => {
  expect(extensionId).toBe(EXTENSION_ID);
});

test('signed out, the side panel says Kindly login... and opens the web app login', async ({
  context,
  openExtensionPage,
  storage,
}) => {
  const panel = await openExtensionPage('sidepanel.html');
  await expect(panel.getByText(kindlyLogin)).toBeVisible();
  const [login] = await Promise.all([
    context.waitForEvent('page'),
    panel.getByRole('button', { name: tr('en', 'extension:session.login') }).click(),
  ]);
  await expect(login).toHaveURL(`${web()}/login`);
  expect((await storage()).token).toBeUndefined();
});

test('a token posted by the web app page signs the extension in; null signs it out', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-handoff'), undefined, 'Handoff Hana');
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).token).toBe(user.token);

  const panel = await openExtensionPage('sidepanel.html');
  await expect(panel.getByTestId('user-name')).toHaveText('Handoff Hana');
  await expect(panel.getByTestId('user-email')).toHaveText(user.email);
  await shot(panel, 'extension-panel-signed-in');

  await postUpdateToken(page, null);
  await expect(panel.getByText(kindlyLogin)).toBeVisible();
  expect((await storage()).token).toBeUndefined();
  await expect(panel.getByText(loggedOut)).toHaveCount(0);
});

test('logging in and out in the web app signs the extension in and out', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-web-login'), undefined, 'Web Wanda');
  await uiLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/(home|on-boarding\/1)$/);
  const webToken = await storedToken(page);
  expect(webToken).toBeTruthy();
  await expect.poll(async () => (await storage()).token, { message: 'the web app posts UPDATE_TOKEN' }).toBe(webToken);
  const panel = await openExtensionPage('sidepanel.html');
  await expect(panel.getByTestId('user-name')).toHaveText('Web Wanda');

  await page.goto('/signout');
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(async () => (await storage()).token).toBeUndefined();
  await expect(panel.getByText(kindlyLogin)).toBeVisible();
});

test('logging out in the extension ends the session and tells the web app', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-logout'));
  await page.goto('/login');
  await page.evaluate(() => {
    (window as unknown as { heard: unknown[] }).heard = [];
    window.addEventListener('message', (e) => (window as unknown as { heard: unknown[] }).heard.push(e.data));
  });
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);

  const panel = await openExtensionPage('sidepanel.html');
  await panel.getByRole('button', { name: tr('en', 'extension:session.logout') }).click();
  await expect(panel.getByText(kindlyLogin)).toBeVisible();
  expect((await storage()).token).toBeUndefined();
  // The server session is over, and the web app page heard it.
  expect((await apiGet('/api/user/profile', user.token)).status).toBe(401);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { heard: { type?: string }[] }).heard.map((m) => m?.type)))
    .toContain('PARLEY_EXTENSION_LOGGED_OUT');
});

test('the web app drops its token when the extension logs out', async ({ page, openExtensionPage, storage }) => {
  const user = await apiSignUp(uniqueEmail('ext-logout-web'));
  await uiLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/(home|on-boarding\/1)$/);
  await expect.poll(async () => (await storage()).session?.signedIn, { message: 'hand-off' }).toBe(true);
  const panel = await openExtensionPage('sidepanel.html');
  await panel.getByRole('button', { name: tr('en', 'extension:session.logout') }).click();
  await expect.poll(() => storedToken(page), { message: 'the web app listens to the bridge' }).toBeNull();
});

test('a session replaced elsewhere (409) signs the extension out, saying why in the person language', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-409'), undefined, 'Forced Fred');
  expect((await apiSetLanguage(user.token, 'fr')).ok).toBe(true);
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  // Signed in with the profile read (its language, French, is what the panel keeps after the sign-out).
  await expect.poll(async () => (await storage()).session?.profile?.language).toBe('fr');

  // Another login without "multiple login" replaces the extension's session.
  const again = await fetch(`${web()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(again.ok).toBe(true);

  const panel = await openExtensionPage('sidepanel.html'); // refreshes the profile on open
  // The server's reason, in French as the rest of the panel (the person's language, kept after the sign-out).
  await expect(panel.getByText(exact(tr('fr', 'api:errors.SESSION_REPLACED_replaced')))).toBeVisible();
  await expect(panel.getByText(exact(tr('fr', 'extension:session.kindlyLogin')))).toBeVisible();
  await expect(panel.locator('html')).toHaveAttribute('lang', 'fr');
  await shot(panel, 'extension-panel-logged-out-409');
  const stored = await storage();
  expect(stored.token).toBeUndefined();
  expect(stored.session?.endReason).toBe('forced');
});

test('settings start at the defaults and sync both ways with /api/user/setting', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-settings'));
  const serverDefaults = (await apiGet('/api/user/setting', user.token)).data;
  await expect.poll(async () => (await storage()).settings).toEqual(serverDefaults);

  await page.goto('/login');
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);

  // Options page → server.
  const options = await openExtensionPage('options.html');
  await options.locator('select[name=tone]').selectOption('FORMAL');
  await options.locator('input[name=instantReplyLinkedin]').uncheck();
  await options.getByPlaceholder('example.com').fill('https://www.News.example.org/today');
  await options.getByRole('button', { name: tr('en', 'settings:fields.disabledSites.add') }).click();
  await expect(options.getByRole('list').getByText('news.example.org')).toBeVisible();
  await expect
    .poll(async () => (await apiGet('/api/user/setting', user.token)).data)
    .toMatchObject({ tone: 'FORMAL', instantReplyLinkedin: '0', disabledSites: ['news.example.org'] });

  // Server (the web app's settings) → extension storage, when a settings screen opens.
  expect((await apiPost('/api/user/setting', user.token, { length: 'LONG', miniMenu: '0' })).status).toBe(200);
  await options.reload();
  await expect(options.locator('select[name=length]')).toHaveValue('LONG');
  await expect(options.locator('input[name=miniMenu]')).not.toBeChecked();
  await expect(options.locator('select[name=tone]')).toHaveValue('FORMAL');
  expect((await storage()).settings).toMatchObject({ length: 'LONG', miniMenu: '0', tone: 'FORMAL' });
  await shot(options, 'extension-options');
});

test('hostile pages cannot hand over a token or reach the extension', async ({ page, storage }) => {
  const user = await apiSignUp(uniqueEmail('ext-hostile'));
  // Another origin entirely, and the same server under another host name (another origin too).
  for (const url of [`${other()}/hostile`, web().replace('127.0.0.1', 'localhost') + '/login']) {
    await page.goto(url);
    await postUpdateToken(page, user.token);
    const reach = await page.evaluate(async (id) => {
      const c = (
        globalThis as unknown as {
          chrome?: { runtime?: { sendMessage?: (id: string, message: unknown) => Promise<unknown> } };
        }
      ).chrome;
      if (!c?.runtime?.sendMessage) return 'no runtime';
      try {
        await c.runtime.sendMessage(id, { parley: 1, type: 'SET_COOKIE', data: { token: 'x'.repeat(43) } });
        return 'sent';
      } catch {
        return 'refused';
      }
    }, EXTENSION_ID);
    expect(reach).not.toBe('sent');
  }
  await page.waitForTimeout(500);
  const stored = await storage();
  expect(stored.token).toBeUndefined();
  expect(stored.session?.signedIn ?? false).toBe(false);
});

test('chat with this page previews exactly what will be sent; a disabled site gets nothing', async ({
  context,
  page,
  openExtensionPage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-page'));
  await page.goto('/login');
  await postUpdateToken(page, user.token);

  const article = await context.newPage();
  await article.goto(`${other()}/article`);
  const full = await openExtensionPage('extensionIndex.html');
  await article.bringToFront(); // the page to read is the one used last
  await full.bringToFront();
  await full.getByRole('button', { name: tr('en', 'extension:pageChat.button') }).click();
  const preview = full.getByTestId('page-preview');
  await expect(preview).toContainText('Lighthouses of the north');
  await expect(preview).toContainText(`${other()}/article`);
  await expect(preview).toContainText('Paragraph 6: the keepers climbed');
  await expect(preview).not.toContainText('Cookie banner text');
  await shot(full, 'extension-page-preview');

  const options = await openExtensionPage('options.html');
  await options.getByPlaceholder('example.com').fill('127.0.0.1');
  await options.getByRole('button', { name: tr('en', 'settings:fields.disabledSites.add') }).click();
  await expect(options.getByRole('list').getByText('127.0.0.1')).toBeVisible();
  await options.close();

  await article.reload();
  await article.bringToFront();
  await full.bringToFront();
  await full.getByRole('button', { name: tr('en', 'extension:pageChat.discard') }).click();
  await full.getByRole('button', { name: tr('en', 'extension:pageChat.button') }).click();
  await expect(full.getByText(tr('en', 'extension:pageChat.unavailable'))).toBeVisible();
});

test('OPEN_CLOSE_POPUP opens the panel, or the full page when the browser refuses a side panel', async ({
  context,
  openExtensionPage,
}) => {
  const options = await openExtensionPage('options.html');
  const pages = context.pages().length;
  const answer = await options.evaluate(() =>
    (
      globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
    ).chrome.runtime.sendMessage({ parley: 1, type: 'OPEN_CLOSE_POPUP', data: { action: 'open' } }),
  );
  const state = (answer as { ok: boolean; data: { state: string } }).data.state;
  expect(['open', 'opened-in-tab']).toContain(state);
  test.info().annotations.push({ type: 'panel', description: state });
  if (state === 'opened-in-tab') {
    await expect
      .poll(() => context.pages().map((p) => p.url()))
      .toContain(`chrome-extension://${EXTENSION_ID}/extensionIndex.html`);
  } else {
    expect(context.pages().length).toBe(pages);
  }
});

test('the extension speaks the language stored on the profile', async ({ page, openExtensionPage }) => {
  const user = await apiSignUp(uniqueEmail('ext-fr'), undefined, 'Françoise');
  expect((await apiPost('/api/user/profile', user.token, { language: 'fr' })).status).toBe(200);
  await page.goto('/login');
  await postUpdateToken(page, user.token);

  const panel = await openExtensionPage('sidepanel.html');
  await expect(panel.getByRole('button', { name: tr('fr', 'extension:session.logout') })).toBeVisible();
  await expect(panel.getByRole('button', { name: tr('fr', 'extension:pageChat.button') })).toBeVisible();
  const options = await openExtensionPage('options.html');
  await expect(options.getByRole('heading', { name: tr('fr', 'extension:options.title') })).toBeVisible();
  await expect(options.locator('select[name=tone] option:checked')).toHaveText(tr('fr', 'settings:tones.CASUAL'));
  await expect(options.locator('select[name=language] option:checked')).toHaveText('Anglais');
});

test('the side panel chats through the background and sends the previewed page with the next question', async ({
  context,
  page,
  openExtensionPage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-chat'));
  await page.goto('/login');
  await postUpdateToken(page, user.token);

  const article = await context.newPage();
  await article.goto(`${other()}/article`);
  const panel = await openExtensionPage('sidepanel.html');
  const box = panel.getByRole('textbox', { name: tr('en', 'chat:composer.label') });
  await box.fill('What is a lighthouse?');
  await box.press('Enter');
  const log = panel.getByRole('log', { name: tr('en', 'chat:conversation') });
  await expect(log.getByText('You asked: What is a lighthouse?')).toBeVisible();
  await expect(panel.getByRole('button', { name: tr('en', 'chat:composer.send') })).toBeVisible();

  await article.bringToFront(); // the page to read is the one used last
  await panel.bringToFront();
  await panel.getByRole('button', { name: tr('en', 'extension:pageChat.button') }).click();
  await expect(panel.getByTestId('page-preview')).toContainText('Lighthouses of the north');
  await expect(panel.getByTestId('page-chip')).toContainText('Lighthouses of the north');
  await box.fill('What is this page about?');
  await box.press('Enter');
  await expect(log.getByText('You asked: What is this page about?')).toBeVisible();
  await expect(log.getByText('The page is titled "Lighthouses of the north".')).toBeVisible();
  // The page went with that question only.
  await expect(panel.getByTestId('page-chip')).toHaveCount(0);
  await shot(panel, 'extension-panel-chat');

  await panel.getByRole('button', { name: tr('en', 'chat:history.newChat') }).click();
  await expect(log).toHaveCount(0);

  // The history: the conversation is listed, opens with its messages, and the next question continues it.
  await panel.getByRole('button', { name: tr('en', 'chat:history.open') }).click();
  const list = panel.getByRole('list', { name: tr('en', 'chat:history.title') });
  await expect(list.getByRole('button')).toHaveCount(1);
  await shot(panel, 'extension-panel-history');
  await list.getByRole('button').click();
  await expect(log.getByText('You asked: What is a lighthouse?')).toBeVisible();
  await expect(log.getByText('The page is titled "Lighthouses of the north".')).toBeVisible();
  await box.fill('And one more thing?');
  await box.press('Enter');
  await expect(log.getByText('You asked: And one more thing?')).toBeVisible();
  await expect(panel.getByRole('button', { name: tr('en', 'chat:composer.send') })).toBeVisible(); // the answer ended
  // Three answers, three credits (the daily ones go first): the header follows.
  const credits = panel.getByRole('list', { name: tr('en', 'extension:header.credits') });
  await expect(credits).toContainText(new RegExp(`${tr('en', 'extension:header.daily')}\\s*0`));
  await expect(credits).toContainText(new RegExp(`${tr('en', 'extension:header.basic')}\\s*30`));
  const chats = await apiGet<{ chatHistoryId: string }[]>('/api/mongo/users/chat/histories', user.token);
  expect(chats.data).toHaveLength(1);
  const one = await apiGet<{ messages: { id: string; text: string }[] }>(
    `/api/mongo/users/chat/history?chatHistoryId=${chats.data[0]!.chatHistoryId}`,
    user.token,
  );
  expect(one.data.messages.map((m) => m.text)).toContain('And one more thing?');
  expect(one.data.messages).toHaveLength(6);
  // Regenerate: a new last answer to the same question, in place of the old one.
  await log.getByRole('button', { name: tr('en', 'chat:message.regenerate') }).click();
  await expect(panel.getByRole('button', { name: tr('en', 'chat:composer.send') })).toBeVisible();
  await expect(log.getByText('You asked: And one more thing?')).toHaveCount(1);
  await expect(log.getByRole('button', { name: tr('en', 'chat:message.regenerate') })).toHaveCount(1);
  const again = await apiGet<{ messages: { id: string; text: string }[] }>(
    `/api/mongo/users/chat/history?chatHistoryId=${chats.data[0]!.chatHistoryId}`,
    user.token,
  );
  expect(again.data.messages).toHaveLength(6);
  expect(again.data.messages.at(-1)!.id).not.toBe(one.data.messages.at(-1)!.id);
  // A search that matches nothing says so.
  await panel.getByRole('button', { name: tr('en', 'chat:history.open') }).click();
  await panel.getByRole('searchbox', { name: tr('en', 'chat:history.search') }).fill('zebra crossing');
  await expect(panel.getByText(tr('en', 'chat:history.noResults', { q: 'zebra crossing' }))).toBeVisible();
});
