import type { Page } from '@playwright/test';
import { apiGet, tr } from '../../support.js';
import { allowClipboard, clipboardText, expect, onSite, signIn, test, URLS as SITE_URLS } from '../sites.js';

const ARTICLE_URL = SITE_URLS.article;

/** The pages with a reply box, one per site (LinkedIn twice: a feed post and a conversation). */
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

const REPLY = tr('en', 'extension:onSite.replyButton');
const COPY = tr('en', 'extension:onSite.copy');
const COPIED = tr('en', 'extension:onSite.copied');
/** The names of the buttons shown by the first reply UI on the page. */
const replyButtons = (page: Page) => onSite(page, 'reply').buttonNames();

const editorText = (page: Page) =>
  page.evaluate(() => (window as unknown as { __editorState?: { text: string } }).__editorState?.text ?? '');

test('every site gets a reply button whose suggestion lands in the site editor', async ({ context, page, storage }) => {
  await allowClipboard(context);
  for (const [i, [name, url]] of Object.entries(URLS).entries()) {
    // The free plan replies 3 times a day on each kind of site (see the next test): a new person every third site.
    if (i % 3 === 0) await signIn(page, storage);
    await test.step(name, async () => {
      const site = await context.newPage();
      await site.goto(url);
      const reply = onSite(site, 'reply');
      await expect.poll(() => replyButtons(site)).toContain(REPLY);
      await reply.click(REPLY);
      await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain('You asked:');
      const suggestion = (await reply.text('[data-parley=suggestion]')) ?? '';
      const firstLine = suggestion.split('\n')[0]!.trim().slice(0, 40);
      // The suggestion cannot be selected by hand (it is drawn, see showText): Copy gives it whole.
      await reply.click(COPY);
      await expect.poll(() => reply.buttonNames()).toContain(COPIED);
      expect(await clipboardText(site)).toBe(suggestion);
      await reply.click(tr('en', 'extension:onSite.insert'));
      await expect
        .poll(() => editorText(site), { message: `${name}: the editor's model has the text` })
        .toContain(firstLine);
      await site.close();
    });
  }
});

test('on the free plan, the fourth comment of the day says so, and spends nothing', async ({
  context,
  page,
  storage,
}) => {
  const user = await signIn(page, storage);
  const credits = async () =>
    (await apiGet<{ credits: { dailyCredit: number; basicCredit: number } }>('/api/user/profile', user.token)).data
      .credits;
  const start = await credits();
  const site = await context.newPage();
  await site.goto(URLS.x);
  const reply = onSite(site, 'reply');
  await expect.poll(() => replyButtons(site)).toContain(REPLY);
  await reply.click(REPLY);
  await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain('You asked:');
  for (let i = 0; i < 2; i++) {
    await reply.click(tr('en', 'extension:onSite.regenerate'));
    await expect.poll(() => reply.buttonNames()).toContain(tr('en', 'extension:onSite.insert'));
  }
  // The three comments have reserved their credit (one each): an Insert button still shown from the one before can
  // end the wait above before the third request is made.
  await expect
    .poll(async () => {
      const now = await credits();
      return start.dailyCredit + start.basicCredit - now.dailyCredit - now.basicCredit;
    })
    .toBe(3);
  const before = await credits();
  await reply.click(tr('en', 'extension:onSite.regenerate'));
  await expect
    .poll(() => reply.text('[data-parley=suggestion]'))
    .toBe(tr('en', 'api:errors.DAILY_LIMIT_REACHED', { limit: 3 }));
  const after = (
    await apiGet<{ credits: { dailyCredit: number; basicCredit: number } }>('/api/user/profile', user.token)
  ).data.credits;
  expect(after).toEqual(before);
});

test('Gmail and YouTube show a summary, which Copy puts on the clipboard', async ({ context, page, storage }) => {
  await signIn(page, storage);
  await allowClipboard(context);
  for (const url of [URLS.gmail, URLS.youtube]) {
    const site = await context.newPage();
    await site.goto(url);
    const summary = onSite(site, 'summary');
    await summary.click(tr('en', 'extension:onSite.summarize'));
    await expect.poll(() => summary.text('[data-parley=summary]')).toContain('You asked:');
    await summary.click(COPY);
    await expect.poll(() => summary.buttonNames()).toContain(COPIED);
    expect(await clipboardText(site)).toBe(await summary.text('[data-parley=summary]'));
    // It says Copy again a moment later.
    await expect.poll(() => summary.buttonNames()).toContain(COPY);
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
  await expect.poll(() => replyButtons(facebook)).toContain(REPLY);
  await facebook.waitForTimeout(500);
  expect(await onSite(x, 'reply').count()).toBe(0);
  expect(await onSite(instagram, 'reply').count()).toBe(0);
});

test('selected text gets the mini menu; Summarize shows the answer, Rewrite in a field can be inserted', async ({
  context,
  page,
  storage,
}) => {
  await signIn(page, storage);
  await allowClipboard(context);
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  const quick = onSite(site, 'quick');
  await site.locator('#para').click({ clickCount: 3 });
  await quick.click(tr('en', 'extension:onSite.summarize'));
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain('You asked:');
  await quick.click(COPY);
  await expect.poll(() => quick.buttonNames()).toContain(COPIED);
  expect(await clipboardText(site)).toBe(await quick.text('[data-parley=quick-result]'));
  // Not editable: no Insert.
  expect((await quick.buttons()).map((b) => b.name)).not.toContain(tr('en', 'extension:onSite.insert'));

  await site.keyboard.press('Escape');
  await expect.poll(() => quick.count()).toBe(0);
  const notes = site.locator('#notes');
  await notes.fill('we leave early tomorrow');
  await notes.press('Shift+Home');
  await quick.click(tr('en', 'extension:onSite.rewrite'));
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain('You asked:');
  await quick.click(tr('en', 'extension:onSite.insert'));
  await expect(notes).toHaveValue(/You asked:/);
  await expect.poll(() => quick.count()).toBe(0);
});

test('the quick-access shortcut opens the box anywhere; Esc closes it', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  await site.locator('h1').click();
  await site.keyboard.press('Control+Shift+K');
  const quick = onSite(site, 'quick');
  // The box's field has the focus: what is typed goes there.
  await expect.poll(() => quick.focused()).toEqual({ tag: 'input', label: tr('en', 'extension:onSite.quickAccess') });
  await site.keyboard.type('When do the boats leave?');
  await site.keyboard.press('Enter');
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain('You asked:');
  expect(await quick.text('[data-parley=quick-result]')).toContain('When do the boats leave?');
  await site.keyboard.press('Escape');
  await expect.poll(() => quick.count()).toBe(0);
});

test('a Google results page gets the Search with AI card with its sources', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto('https://www.google.com/search?q=how+to+store+fresh+basil');
  const card = onSite(site, 'search', { within: '#rhs' });
  await card.click(tr('en', 'extension:onSite.searchAsk'));
  await expect.poll(() => card.text('[data-parley=search-answer]')).toContain('You asked:');
  await allowClipboard(context);
  await card.click(COPY);
  await expect.poll(() => card.buttonNames()).toContain(COPIED);
  expect(await clipboardText(site)).toBe(await card.text('[data-parley=search-answer]'));
  const links = await card.links();
  expect(links).toContainEqual({
    name: 'Keeping basil fresh for a week – Herb Notes',
    href: 'https://herbs.example.org/basil-storage',
  });
  expect(links).toHaveLength(2);
});

test('mini menu off: selecting text shows nothing; search with AI off: no card', async ({ context, page, storage }) => {
  await signIn(page, storage, { miniMenu: '0', searchWithAI: '0' });
  const site = await context.newPage();
  await site.goto(ARTICLE_URL);
  await site.locator('#para').click({ clickCount: 3 });
  const google = await context.newPage();
  await google.goto('https://www.google.com/search?q=how+to+store+fresh+basil');
  await site.waitForTimeout(800);
  expect(await onSite(site, 'quick').count()).toBe(0);
  expect(await onSite(google, 'search').count()).toBe(0);
});
