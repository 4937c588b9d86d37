import type { Page } from '@playwright/test';
import { tr } from '../../support.js';
import { expect, signIn, test, URLS as SITE_URLS } from '../sites.js';

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

const replyButton = (page: Page) =>
  page
    .locator('parley-reply')
    .first()
    .getByRole('button', { name: tr('en', 'extension:onSite.replyButton') });

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
