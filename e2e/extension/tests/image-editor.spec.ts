import type { Page } from '@playwright/test';
import { apiGet, apiSetLanguage, apiSignUp, shot, tr, uniqueEmail } from '../../support.js';
import { expect, postUpdateToken, test } from '../fixtures.js';

/**
 * "Edit with Parley" on an image's context menu, with the built extension: the background fetches the image, keeps PNG
 * and JPEG (by their bytes), uploads it with its token and opens the web app's editor with it. Context menus cannot be
 * clicked from Playwright: EDIT_IMAGE runs the very function the menu's onClicked listener calls
 * (features/image-editor/background.ts) for that image.
 */

const other = () => process.env.E2E_OTHER_URL!;
const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';
const EDITOR_WITH_IMAGE = /\/image-editor\/[0-9a-f-]{36}$/;

type Answer = { ok: boolean; data?: { url: string }; error?: { code: string } };

/** Signed in on the web app and, through its bridge, in the extension. */
async function signIn(page: Page, tag: string) {
  const user = await apiSignUp(uniqueEmail(tag));
  await page.goto('/login');
  await page.evaluate((token) => localStorage.setItem('token', token), user.token);
  await postUpdateToken(page, user.token);
  return user;
}

test('Edit with Parley: the image opens in the editor; another kind, no image or a refusal opens it saying why', async ({
  context,
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await signIn(page, 'edit-image');
  await expect.poll(async () => Boolean((await storage()).token)).toBe(true);
  const options = await openExtensionPage('options.html');
  const send = (data: unknown) =>
    options.evaluate(
      (d) =>
        (
          globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
        ).chrome.runtime.sendMessage({ parley: 1, type: 'EDIT_IMAGE', data: d }),
      data,
    ) as Promise<Answer>;

  // A PNG of another site: fetched, uploaded as the person's, and the editor opens with it in a new tab.
  let opened = context.waitForEvent('page', (p) => EDITOR_WITH_IMAGE.test(p.url()));
  const answer = await send({ srcUrl: `${other()}/capture/swatch.png` });
  expect(answer).toMatchObject({ ok: true, data: { url: expect.stringMatching(EDITOR_WITH_IMAGE) } });
  let editor = await opened;
  const made = tr('en', 'images:versions.made.upload');
  await expect(
    editor.getByRole('button', { name: tr('en', 'images:versions.label', { number: 1, made }) }),
  ).toHaveAttribute('aria-current', 'true');
  await expect(editor.getByText(`${tr('en', 'images:versions.label', { number: 1, made })} · 160 × 100`)).toBeVisible();
  await shot(editor, 'extension-edit-with-parley');
  const { data } = await apiGet<{ images: { id: string; name: string; source: string }[] }>('/api/images', user.token);
  expect(data.images).toEqual([expect.objectContaining({ name: 'swatch', source: 'uploaded' })]);
  expect(answer.data!.url.endsWith(data.images[0]!.id)).toBe(true);
  await editor.close();

  // Another kind of image (a GIF, as a data: URL of the page): the editor says only PNG and JPEG.
  const problem = (word: string) => (p: Page) => p.url().endsWith(`/image-editor?problem=${word}`);
  opened = context.waitForEvent('page', problem('formatUnsupported'));
  expect(await send({ srcUrl: GIF })).toMatchObject({ ok: true });
  editor = await opened;
  await expect(editor.getByRole('alert')).toContainText(tr('en', 'images:files.formatUnsupported'));
  await editor.close();

  // No image at all, and an address the site does not serve: in the person's language (French here).
  const profile = await apiSetLanguage(user.token, 'fr');
  expect(profile.status).toBe(200);
  opened = context.waitForEvent('page', problem('notImage'));
  await send({ srcUrl: 'data:text/html,<h1>Not a picture</h1>' });
  editor = await opened;
  await expect(editor.getByRole('alert')).toContainText(tr('fr', 'images:files.notImage'));
  await expect(editor.getByRole('alert')).toContainText(tr('fr', 'images:opened.title'));
  await shot(editor, 'extension-edit-with-parley-refused-fr');
  await editor.close();
  opened = context.waitForEvent('page', problem('fetchFailed'));
  await send({ srcUrl: `${other()}/capture/missing.png` });
  editor = await opened;
  await expect(editor.getByRole('alert')).toContainText(tr('fr', 'images:opened.fetchFailed'));
  await editor.close();

  // Nothing else was kept; an address that is no web image is refused outright.
  expect((await apiGet<{ images: unknown[] }>('/api/images', user.token)).data.images).toHaveLength(1);
  expect(await send({ srcUrl: 'javascript:alert(1)' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });

  // The extension signed out (the web app still signed in): the editor opens and says to try again; opening it hands
  // the web app's session back to the extension, as every start of the web app does.
  await postUpdateToken(page, null);
  await expect.poll(async () => Boolean((await storage()).token)).toBe(false);
  opened = context.waitForEvent('page', problem('signedOut'));
  await send({ srcUrl: `${other()}/capture/swatch.png` });
  editor = await opened;
  await expect(editor.getByRole('alert')).toContainText(tr('fr', 'images:opened.signedOut'));
  await expect.poll(async () => (await storage()).token).toBe(user.token);
  expect((await apiGet<{ images: unknown[] }>('/api/images', user.token)).data.images).toHaveLength(1);
});
