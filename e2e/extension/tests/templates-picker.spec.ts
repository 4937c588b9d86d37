import type { Page, Worker } from '@playwright/test';
import { apiSignUp, openSignedIn, shot, uniqueEmail } from '../../support.js';
import { apiPost, type Storage } from '../fixtures.js';
import { editorState, expect, onSite, test, URLS } from '../sites.js';

/**
 * The web app's template picker (/template-app), opened by the extension from a site's templates in a small window of
 * its own, and the lists kept fresh when the person changes them on the web. The web app and the extension are signed
 * in the way a person is: signed in on the web, whose bridge hands the token to the extension.
 */
const VENUE = 'Lakeside Lodge fits the budget. Booking it today.';

async function signInEverywhere(page: Page, storage: () => Promise<Storage>) {
  const user = await apiSignUp(uniqueEmail('ext-picker'));
  const made = await Promise.all([
    apiPost('/api/template/add', user.token, {
      kind: 'mail',
      title: 'Confirm the venue',
      body: `Hi {{first_name}},\n\n${VENUE}\n\n{{my_name}}`,
    }),
    apiPost('/api/template/add', user.token, {
      kind: 'mail',
      title: 'Running late',
      body: 'Running ten minutes late.',
    }),
    apiPost('/api/template/add', user.token, { kind: 'message', title: 'Thanks for sharing', body: 'Thanks!' }),
  ]);
  for (const answer of made) expect(answer.status).toBe(200);
  expect((await apiPost('/api/user/setting', user.token, { model: 'CUSTOM_OPENAI_COMPATIBLE' })).status).toBe(200);
  await openSignedIn(page, user.token, '/template');
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);
  await expect
    .poll(async () => ((await storage()).templates as { templates: unknown[] } | undefined)?.templates.length)
    .toBe(3);
  return user;
}

/** The picker's window as the browser has it (its type), read in the background worker. */
const pickerWindow = (worker: Worker) =>
  worker.evaluate(async () => {
    const chrome = (globalThis as any).chrome;
    const windows = (await chrome.windows.getAll({ populate: true })) as Array<{
      type: string;
      tabs: Array<{ url?: string; pendingUrl?: string }>;
    }>;
    const found = windows.find((w) => w.tabs.some((t) => (t.url ?? t.pendingUrl ?? '').includes('/template-app')));
    return found ? { type: found.type } : null;
  });

/** Posts a picker's message on a page's own window, and returns what the extension's bridge answered there. */
const postChoice = (page: Page, message: unknown) =>
  page.evaluate(
    (data) =>
      new Promise<unknown>((resolve) => {
        const onMessage = (event: MessageEvent) => {
          if (event.data?.type !== 'PARLEY_TEMPLATE_RECEIVED') return;
          window.removeEventListener('message', onMessage);
          resolve(event.data);
        };
        window.addEventListener('message', onMessage);
        setTimeout(() => resolve('no answer'), 3000);
        window.postMessage(data, location.origin);
      }),
    message,
  );

test('More templates… opens the web app’s picker in a small window; the template chosen there goes into the Gmail reply, once', async ({
  context,
  page,
  storage,
  worker,
}) => {
  await signInEverywhere(page, storage);
  const gmail = await context.newPage();
  await gmail.goto(URLS.gmail);
  const reply = onSite(gmail, 'reply');
  await reply.click('Templates');
  await expect.poll(() => reply.buttonNames()).toContain('More templates…');

  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/template-app') });
  await reply.click('More templates…');
  const picker = await opened;
  expect(new URL(picker.url()).search).toBe('?from=extension');
  // A popup window (Playwright then sizes every page of the test browser alike: the picker is shown at its own size).
  await expect.poll(async () => (await pickerWindow(worker))?.type).toBe('popup');
  await picker.setViewportSize({ width: 440, height: 600 });
  await expect(picker.getByRole('heading', { level: 1, name: 'Insert a template' })).toBeVisible();
  const insert = picker.getByRole('button', { name: 'Insert Confirm the venue' });
  await expect(insert).toBeVisible();
  await expect(picker.getByRole('button', { name: /^Copy / })).toHaveCount(0);
  await shot(picker, 'extension-template-picker-popup');

  // The web app open in another tab cannot answer for the picker: only the picker's own window is heard.
  const template = await page.evaluate(async () => {
    const res = await fetch('/api/template/getAll', {
      headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    const list = ((await res.json()) as { data: { templates: Array<Record<string, unknown>> } }).data.templates;
    const { id, kind, title, body, language } = list.find((t) => t.title === 'Running late')!;
    return { id, kind, title, body, language };
  });
  expect(await postChoice(page, { type: 'PARLEY_TEMPLATE_CHOSEN', template })).toEqual({
    type: 'PARLEY_TEMPLATE_RECEIVED',
    delivered: false,
  });
  // Nor can Gmail (no bridge there; the message stays on that page).
  await gmail.evaluate((t) => window.postMessage({ type: 'PARLEY_TEMPLATE_CHOSEN', template: t }, '*'), template);

  const closed = picker.waitForEvent('close');
  await insert.click();
  await closed;
  const editor = gmail.locator('[id=":8n"]');
  await expect(editor).toContainText('Hi Morgan,');
  await expect(editor).toContainText('E2E User');
  await expect(editor).not.toContainText('Running ten minutes late');
  // Gmail's draft registered it.
  await expect.poll(async () => (await editorState(gmail))?.text ?? '').toContain(VENUE);
  await shot(gmail, 'extension-template-picker-inserted');

  // Once: the same choice sent again (from a web app page, as a replay) lands nowhere; what the person typed stays.
  await editor.click();
  await gmail.keyboard.press('Control+End');
  await gmail.keyboard.type(' See you there.');
  const venue = await page.evaluate(async () => {
    const res = await fetch('/api/template/getAll', {
      headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    const list = ((await res.json()) as { data: { templates: Array<Record<string, unknown>> } }).data.templates;
    const { id, kind, title, body, language } = list.find((t) => t.title === 'Confirm the venue')!;
    return { id, kind, title, body, language };
  });
  expect(await postChoice(page, { type: 'PARLEY_TEMPLATE_CHOSEN', template: venue })).toEqual({
    type: 'PARLEY_TEMPLATE_RECEIVED',
    delivered: false,
  });
  await gmail.waitForTimeout(500);
  const text = (await editor.textContent()) ?? '';
  expect(text.split(VENUE).length - 1).toBe(1);
  expect(text).toContain('See you there.');
});

test('a change made on the web reaches the extension at once, not within five minutes', async ({
  context,
  page,
  storage,
}) => {
  await signInEverywhere(page, storage);
  const before = ((await storage()).templates as { fetchedAt: number }).fetchedAt;
  // The person deletes a template on the web.
  await page.getByRole('button', { name: 'Delete Running late' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete “Running late”?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect
    .poll(
      async () => {
        const library = (await storage()).templates as { fetchedAt: number; templates: Array<{ title: string }> };
        return library.templates.map((t) => t.title);
      },
      { timeout: 5000 },
    )
    .toEqual(['Confirm the venue', 'Thanks for sharing']);
  expect(((await storage()).templates as { fetchedAt: number }).fetchedAt).toBeGreaterThan(before);

  // And Gmail's list, opened afterwards, no longer offers it.
  const gmail = await context.newPage();
  await gmail.goto(URLS.gmail);
  const reply = onSite(gmail, 'reply');
  await reply.click('Templates');
  await expect.poll(() => reply.buttonNames()).toContain('Confirm the venue');
  expect(await reply.buttonNames()).not.toContain('Running late');
});
