import { expect, test, type Page } from '@playwright/test';
import { buildPdf, buildPng } from '../../apps/api/src/modules/documents/test-fixtures';
import { apiSetLanguage, apiSignUp, type Lng, openSignedIn, shot, tr, uniqueEmail } from '../support';

const MODEL_LABEL = 'parley-test-model';

/** A fresh account (each test gets its own credits), signed in on /chat. */
async function openChat(page: Page, tag: string) {
  const { token } = await apiSignUp(uniqueEmail(tag));
  await openSignedIn(page, token, '/chat');
  await expect(composer(page)).toBeVisible();
  // The model menu has loaded and picked the test server's model.
  await expect(page.getByRole('button', { name: new RegExp(MODEL_LABEL) })).toBeVisible();
  return token;
}

const composer = (page: Page, lng: Lng = 'en') =>
  page.getByRole('textbox', { name: tr(lng, 'chat:composer.label'), exact: true });
const log = (page: Page) => page.getByRole('log');
const stopButton = (page: Page, lng: Lng = 'en') =>
  page.getByRole('button', { name: tr(lng, 'chat:composer.stop'), exact: true });

async function ask(page: Page, question: string, lng: Lng = 'en') {
  await composer(page, lng).fill(question);
  await composer(page, lng).press('Enter');
}

/** The answer is complete when the Stop button has gone and Regenerate is offered. */
async function answered(page: Page, lng: Lng = 'en') {
  await expect(stopButton(page, lng)).toHaveCount(0, { timeout: 20_000 });
}

test.describe('chat', () => {
  test('streams an answer, keeps the conversation in the history, finds it, deletes it', async ({ page }) => {
    await openChat(page, 'chat-stream');
    await expect(page).toHaveTitle(`${tr('en', 'shell:menu.chat')} | Parley`);
    await expect(page.getByRole('heading', { name: tr('en', 'chat:empty.title') })).toBeVisible();

    // #slow: one token every 150 ms, so the answer is seen growing while Stop is offered.
    await ask(page, 'Hello Parley, how are you? #slow');
    const answer = log(page).getByRole('article');
    await expect(answer).toContainText('You asked:');
    await expect(stopButton(page)).toBeVisible();
    expect(await answer.innerText()).not.toContain('how are you?');
    await expect(answer).toContainText('You asked: Hello Parley, how are you?');
    await answered(page);
    await expect(composer(page)).toBeFocused();

    // The new conversation has its address, its model label, and the profile (credits) was refreshed.
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const chatUrl = page.url();
    await expect(answer).toContainText(MODEL_LABEL);
    await expect(answer.getByRole('button', { name: tr('en', 'chat:message.regenerate') })).toBeVisible();
    // The generated title replaces the question in the history, without a reload.
    await expect(page.getByRole('navigation', { name: tr('en', 'chat:history.title') })).toContainText(
      'Test chat title',
      { timeout: 10_000 },
    );

    // A second turn with Markdown for the screenshots: a list, bold text and a highlighted code block.
    await composer(page).fill(
      'Format this:\n- **bold** item\n- `inline` code\n\n```js\nconst answer = 42;\nconsole.log(answer);\n```',
    );
    const profileRefresh = page.waitForRequest((r) => r.url().endsWith('/api/user/profile'), { timeout: 20_000 });
    await composer(page).press('Enter');
    await answered(page);
    await profileRefresh;
    await expect(log(page).locator('pre code .hljs-keyword').first()).toBeVisible();
    await shot(page, `chat-1280`);
    // A phone: the page is loaded at that width (the conversation now comes from the history).
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await expect(log(page).locator('pre code .hljs-keyword').first()).toBeVisible();
    await shot(page, `chat-375`);
    await page.getByRole('button', { name: tr('en', 'chat:history.open') }).click();
    await shot(page, `chat-375-history`);
    await page.getByRole('button', { name: tr('en', 'chat:history.close') }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();

    // New Chat empties the page; the history lists the conversation and opens it again.
    await page
      .getByRole('button', { name: tr('en', 'chat:history.newChat'), exact: true })
      .first()
      .click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByRole('heading', { name: tr('en', 'chat:empty.title') })).toBeVisible();
    const history = page.getByRole('navigation', { name: tr('en', 'chat:history.title') });
    const item = history.getByRole('link').first();
    await expect(item).toBeVisible();
    await item.click();
    await expect(page).toHaveURL(chatUrl);
    await expect(log(page)).toContainText('You asked: Hello Parley, how are you?');
    await expect(log(page).locator('pre code')).toContainText('const answer = 42;');

    // Search finds it by its title; a search for something else finds nothing.
    const title = (await item.locator('span').first().innerText()).trim();
    const search = page.getByRole('searchbox', { name: tr('en', 'chat:history.search') });
    await search.fill(title.slice(0, 4));
    await expect(history.getByRole('link', { name: new RegExp(title) })).toBeVisible();
    await search.fill('zz-no-such-chat');
    await expect(history).toContainText(tr('en', 'chat:history.noResults', { q: 'zz-no-such-chat' }));
    await search.fill('');

    // Delete it, after a confirmation; the page asks for nothing that is gone (no 404 for the deleted conversation).
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    // The list is asked for again after the delete; a request for the deleted conversation would go out with it.
    const listedAgain = page.waitForResponse((r) => r.url().includes('/chat/histories'));
    await history.getByRole('button', { name: tr('en', 'chat:history.delete', { title }) }).click();
    const dialog = page.getByRole('alertdialog', { name: tr('en', 'chat:history.deleteTitle') });
    await expect(dialog.getByRole('button', { name: tr('en', 'chat:history.cancel') })).toBeFocused();
    await dialog.getByRole('button', { name: tr('en', 'chat:history.deleteShort') }).click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(history).toContainText(tr('en', 'chat:history.empty'));
    await listedAgain;
    await page.waitForTimeout(300); // what else that render asked for has come back
    expect(refused).toEqual([]);
  });

  test('Stop ends the answer mid-stream; what was written stays, marked stopped, also after a reload', async ({
    page,
  }) => {
    await openChat(page, 'chat-stop');
    await ask(page, 'Tell me a long story #slow #long');
    await expect(log(page)).toContainText('You asked: Tell me a long story');
    await page.keyboard.press('Escape');
    await expect(stopButton(page)).toHaveCount(0);
    await expect(log(page)).toContainText(tr('en', 'chat:message.stopped'));
    const stopped = await log(page).innerText();
    await page.waitForTimeout(800);
    expect(await log(page).innerText()).toBe(stopped);
    expect(stopped).not.toContain('word199');

    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.reload();
    await expect(log(page)).toContainText('You asked: Tell me a long story');
    await expect(log(page)).toContainText(tr('en', 'chat:message.stopped'));
  });

  test('attaches an image and a PDF; refuses other files with the §5 message', async ({ page }) => {
    await openChat(page, 'chat-files');
    const input = page.locator('input[type="file"]');
    await expect(input).toHaveAttribute('accept', /image\/png.*application\/pdf/);

    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByRole('alert')).toHaveText(tr('en', 'chat:files.unsupported'));

    await input.setInputFiles([
      { name: 'pixel.png', mimeType: 'image/png', buffer: Buffer.from(buildPng()) },
      {
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(buildPdf([['Alpha page about apples'], ['Bravo page about the budget of 2025']])),
      },
    ]);
    const chips = page.getByRole('list', { name: tr('en', 'chat:composer.attachments') });
    await expect(chips).toContainText('pixel.png');
    await expect(chips).toContainText('report.pdf');
    await expect(page.getByRole('alert')).toHaveCount(0);

    await ask(page, 'What is the budget in these files?');
    await answered(page);
    await expect(log(page)).toContainText('I can see 1 image(s).');
    await expect(log(page)).toContainText('From the document (p.');
    await expect(log(page)).toContainText(tr('en', 'chat:message.citedPages'));

    // After a reload the files come from the server (with the bearer header) and still show.
    await page.reload();
    await expect(
      log(page).getByRole('img', { name: tr('en', 'chat:message.imageAlt', { name: 'pixel.png' }) }),
    ).toBeVisible();
    await expect(
      log(page).getByRole('button', { name: tr('en', 'chat:message.openFile', { name: 'report.pdf' }) }),
    ).toBeVisible();
  });

  test('a message pasted over the limit stays whole, is not sent, and says why, in French', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('chat-too-long'));
    await apiSetLanguage(token, 'fr');
    await openSignedIn(page, token, '/chat');
    const box = composer(page, 'fr');
    const long = 'Un long rapport. '.repeat(2_000); // 34,000 characters, the last space trimmed
    await box.fill(long);
    await expect(box).toHaveValue(long);
    const alert = page.getByRole('alert');
    const number = new Intl.NumberFormat('fr').format;
    await expect(alert).toHaveText(tr('fr', 'chat:composer.tooLong', { length: number(33_999), max: number(32_000) }));
    await expect(page.getByRole('button', { name: tr('fr', 'chat:composer.send'), exact: true })).toBeDisabled();
    await box.press('Enter');
    await expect(box).toHaveValue(long); // a message sent leaves the box empty
    await shot(page, `chat-too-long-fr`);

    await box.fill('Un long rapport, en bref.');
    await expect(alert).toHaveCount(0);
    await box.press('Enter');
    await expect(log(page)).toContainText('Un long rapport, en bref.');
  });

  test('the message box has the focus when /chat opens; file sizes and times are written per language', async ({
    page,
  }) => {
    const { token } = await apiSignUp(uniqueEmail('chat-format'));
    await apiSetLanguage(token, 'fr');
    await openSignedIn(page, token, '/chat');
    await expect(composer(page, 'fr')).toBeFocused();

    const png = Buffer.from(buildPng());
    const pdf = Buffer.alloc(1536 * 1024, 0x20);
    pdf.write('%PDF-1.4\n', 0, 'latin1');
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'pixel.png', mimeType: 'image/png', buffer: png },
      { name: 'long.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    const chips = page.getByRole('list', { name: tr('fr', 'chat:composer.attachments') });
    // French: the unit in words for bytes, a decimal comma and "Mo" for larger files.
    await expect(chips).toContainText(`${png.length} octets`);
    await expect(chips).toContainText(/1,5\s?Mo/);
    await chips.getByRole('button', { name: tr('fr', 'chat:composer.removeAttachment', { name: 'long.pdf' }) }).click();

    await ask(page, 'Quelle heure est-il ?', 'fr');
    await answered(page, 'fr');
    // The answer carries the time it was written, as every list shows times (24-hour clock in French).
    await expect(log(page).getByRole('article').locator('time')).toHaveText(/^\d{2}:\d{2}$/);
    await shot(page, `chat-format-fr`);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    await expect(
      log(page)
        .getByRole('article')
        .getByRole('button', { name: tr('fr', 'chat:message.translate') }),
    ).toBeInViewport();
    await shot(page, `chat-format-fr-375`);
  });

  test('hostile Markdown in an answer never runs and a remote image waits for a click', async ({ page }) => {
    await openChat(page, 'chat-hostile');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const hostile =
      'Echo <script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2"> [click](javascript:window.__pwned=3) ![x](http://127.0.0.1:9/evil.png)';
    await ask(page, hostile);
    await answered(page);

    const answer = log(page).getByRole('article');
    await expect(answer).toContainText('<script>window.__pwned=1</script>');
    await expect(answer).toContainText('<img src=x onerror="window.__pwned=2">');
    await expect(answer.getByRole('link', { name: 'click' })).toHaveCount(0);
    await answer.getByText('click', { exact: true }).click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img[src*="127.0.0.1:9"], img[src="x"], script:not([src])').count()).toBe(0);
    expect(requests.filter((url) => url.includes('127.0.0.1:9/'))).toEqual([]);

    // Only on request is the image loaded.
    const load = answer.getByRole('button', {
      name: new RegExp(tr('en', 'chat:message.loadImage', { host: '127.0.0.1:9' })),
    });
    await expect(load).toBeVisible();
    const imageRequest = page.waitForRequest((r) => r.url() === 'http://127.0.0.1:9/evil.png');
    await load.click();
    await imageRequest;
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  test('in French: translated interface, and a provider error shows the localized message with Retry', async ({
    page,
  }) => {
    await openChat(page, 'chat-fr');
    const profileSaved = page.waitForResponse(
      (r) => r.url().endsWith('/api/user/profile') && r.request().method() === 'POST',
    );
    await page.locator('#header-language').selectOption('fr');
    await profileSaved;
    await expect(composer(page, 'fr')).toBeVisible();
    await expect(page.getByRole('heading', { name: tr('fr', 'chat:empty.title') })).toBeVisible();
    await expect(
      page.getByRole('button', { name: tr('fr', 'chat:history.newChat'), exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: tr('fr', 'chat:composer.webSearch') })).toBeVisible();
    await expect(page.getByRole('link', { name: tr('fr', 'shell:menu.chat') })).toBeVisible();

    await ask(page, 'Bonjour #fail500', 'fr');
    const alert = log(page).getByRole('alert');
    await expect(alert).toContainText(tr('fr', 'api:errors.PROVIDER_ERROR'));
    await expect(alert.getByRole('button', { name: tr('fr', 'chat:message.retry') })).toBeVisible();
    await expect(composer(page, 'fr')).toBeEnabled();
  });
});
